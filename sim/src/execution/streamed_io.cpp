#include "execution/streamed_io.hpp"

#include <algorithm>
#include <cmath>

#include <simgrid/s4u/Engine.hpp>

#include "model/job.hpp"

namespace datasched {

std::vector<SanStream> plan_san_streams(const PhaseProfile& profile, const Phase& phase,
                                        const std::vector<int>& executors, const StorageAssignment& storage)
{
  if ((phase.kind != PhaseKind::Read && phase.kind != PhaseKind::Write) || storage.allocation != StorageAllocation::San)
    return {};
  // The I/O tasks as phase_plan's plan_io takes them: the first io_tasks active nodes.
  const size_t active =
      phase.nodes <= 0 || phase.nodes >= static_cast<int>(executors.size()) ? executors.size() : phase.nodes;
  const size_t nb_io  = std::min(active, static_cast<size_t>(profile.io_tasks));
  const double device = phase.amount - phase.amount * profile.storage.mem_hit_pct / 100.0;
  const auto bytes    = static_cast<std::uint64_t>(std::llround(std::max(device, 0.0)));
  std::vector<SanStream> out;
  if (bytes == 0)
    return out;
  for (size_t i = 0; i < nb_io; ++i)
    out.push_back({executors[i], bytes});
  return out;
}

StreamedIo::StreamedIo(Job& job, simgrid::s4u::Semaphore& wakeup, int streams)
    : job_(job), wakeup_(&wakeup), running_(streams)
{}

void StreamedIo::stream_done()
{
  if (--running_ > 0 || stopped_ || job_.killed)
    return;
  released_ = true;
  end_      = simgrid::s4u::Engine::get_clock();
  wakeup_->release();
}

} // namespace datasched
