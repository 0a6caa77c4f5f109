#include "qos/flows.hpp"

#include <algorithm>

#include <simgrid/s4u/Actor.hpp>

namespace datasched::qos {

namespace sg4 = simgrid::s4u;

sg4::ExecPtr FlowLauncher::start(sg4::Host* src, sg4::Host* dst, double bytes, int sl)
{
  return start_with_priority(src, dst, bytes, table_.priority(sl, "flow"));
}

sg4::ExecPtr FlowLauncher::start_with_priority(sg4::Host* src, sg4::Host* dst, double bytes, double priority)
{
  // bytes[i * 2 + j]: from host i to host j; only 0 -> 1 is non-zero (one flow).
  auto exec = sg4::this_actor::exec_init({src, dst}, {0.0, 0.0}, {0.0, bytes, 0.0, 0.0});
  exec->start();
  // Before start() a ptask's priority is ignored (SimGrid 3.32, DESIGN.md).
  exec->update_priority(priority);
  started_++;
  running_++;
  max_running_ = std::max(max_running_, running_);
  return exec;
}

void FlowLauncher::wait(const sg4::ExecPtr& flow)
{
  flow->wait();
  running_--;
}

void FlowLauncher::wait_all(const std::vector<sg4::ExecPtr>& flows)
{
  for (const auto& f : flows)
    wait(f);
}

} // namespace datasched::qos
