#include "execution/ptask.hpp"

namespace datasched {

simgrid::s4u::ExecPtr init_ptask(const std::vector<simgrid::s4u::Host*>& hosts, std::vector<double> flops,
                                 PairBytes bytes)
{
  std::vector<size_t> pair_indices;
  std::vector<double> pair_amounts;
  bytes.release_to(hosts.size(), pair_indices, pair_amounts);
  auto exec = simgrid::s4u::Exec::init();
  exec->set_flops_amounts(std::move(flops))
      ->set_sparse_bytes_amounts(std::move(pair_indices), std::move(pair_amounts))
      ->set_hosts(hosts);
  return exec;
}

} // namespace datasched
