#pragma once
// Seed 003's QoS data-staging experiment (--qos-staging) as a scenario: InfiniBand service
// levels, a staging server with lazy drain, OSU-like, stencil and CG benchmarks under I/O
// noise (qos/README.md); its reader is qos/experiment.hpp, its outputs qos/outputs.hpp.
#include <memory>

#include "scenarios/scenario.hpp"

namespace datasched::qos {

std::unique_ptr<Scenario> make_qos_staging_scenario();

} // namespace datasched::qos
