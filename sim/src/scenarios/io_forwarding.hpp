#pragma once
// Seed 002's I/O forwarding experiment (--io-forwarding) as a scenario: clients of MPI-IO
// Test-like applications, forwarders with their request schedulers, HDD data servers
// (forwarding/README.md); its reader is forwarding/experiment.hpp, its outputs forwarding/outputs.hpp.
#include <memory>

#include "scenarios/scenario.hpp"

namespace datasched::forwarding {

std::unique_ptr<Scenario> make_io_forwarding_scenario();

} // namespace datasched::forwarding
