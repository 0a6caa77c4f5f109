#pragma once
// A planned activity handed to SimGrid as a parallel task. The bytes go in sparse form
// (simgrid/patches/0007, Exec::set_sparse_bytes_amounts): a task in which each host talks
// to a few others costs SimGrid its pairs, not a zeroed host_count^2 matrix to fill, copy
// and scan. The plan's amounts are finite and sized by construction (ActivityBuilder, a
// checked workload), so this_actor::exec_init's re-checks of a dense matrix are not needed.
#include <vector>

#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/pair_bytes.hpp"

namespace datasched {

/// A parallel task over `hosts`, not started, computing `flops` (one amount per host, or
/// none) and moving `bytes` (between indices of `hosts`), both taken over.
simgrid::s4u::ExecPtr init_ptask(const std::vector<simgrid::s4u::Host*>& hosts, std::vector<double> flops,
                                 PairBytes bytes);

} // namespace datasched
