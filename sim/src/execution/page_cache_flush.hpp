#pragma once
// The write-back of a node page cache (model/page_cache.hpp): after a write phase whose
// dirty pages the cache absorbed, one background actor flushes them to their device, one
// SimGrid activity per node and item on the path a written-through byte takes (X -> X-nvm,
// or X-dram -> the I/O servers), so the flush shares the device with every other flow.
// When a flush ends its bytes are clean (out_data.csv: a `flush` row). A flush still
// running when the last job ends is finished (the files reach their device); no job's
// times depend on it.
#include <vector>

#include "execution/item_traffic.hpp"

namespace datasched {

struct Context;

/// Starts the background flush of `flushes` (nothing when empty); `job` names the writer.
void start_page_cache_flush(Context* context, std::vector<PlannedFlush> flushes, const std::string& job);

} // namespace datasched
