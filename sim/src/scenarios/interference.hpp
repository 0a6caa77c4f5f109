#pragma once
// Seed 004's storage-daemon interference experiment (--interference) as a scenario: an
// HPL-like job next to an IOR-like job whose file system's services run on compute nodes
// (interference/README.md); its reader is interference/experiment.hpp, its outputs interference/outputs.hpp.
#include <memory>

#include "scenarios/scenario.hpp"

namespace datasched::interference {

std::unique_ptr<Scenario> make_interference_scenario();

} // namespace datasched::interference
