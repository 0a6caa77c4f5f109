#include "common/transfer.hpp"

#include <vector>

#include <simgrid/s4u/Actor.hpp>

namespace datasched {

simgrid::s4u::ExecPtr transfer_async(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes,
                                     TransferObserver* observer)
{
  // The parallel task NetworkL07Model::communicate builds (see transfer.hpp).
  auto exec = simgrid::s4u::this_actor::exec_init(std::vector<simgrid::s4u::Host*>{from, to}, std::vector<double>{0, 0},
                                                  std::vector<double>{0, bytes, 0, 0});
  exec->start();
  if (observer != nullptr)
    observer->started(exec, from, to, bytes);
  return exec;
}

void transfer(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, TransferObserver* observer)
{
  auto exec = transfer_async(from, to, bytes, observer);
  exec->wait();
  if (observer != nullptr)
    observer->ended(exec.get());
}

} // namespace datasched
