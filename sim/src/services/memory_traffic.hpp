#pragma once
// A node's memory bandwidth as a resource SimGrid shares: bytes moved through a node's memory
// are an I/O activity on a SimGrid disk that stands for it (the interference scenario's
// "memory" node model creates those disks, interference/memory.hpp). Used by the storage
// services (their copies of the bytes they write) and the HPL ranks.
#include <simgrid/forward.h>

namespace datasched::interference {

/// Moves `bytes` through `memory` (nullptr or 0 bytes: nothing): an I/O activity, started.
simgrid::s4u::IoPtr start_memory_traffic(simgrid::s4u::Disk* memory, double bytes);

} // namespace datasched::interference
