#pragma once
// `datasched-sim --inspect`: prints the loaded platform as the engine sees it (hosts,
// Batsim ids and roles, properties, disks) and SimGrid's routes between host pairs,
// as JSON. Platform tools and tests use it to check generated platforms against
// SimGrid's own parser and routing.
#include "common/engine_config.hpp"

namespace datasched {

int inspect_platform(const EngineConfig& config, const char* program_name);

} // namespace datasched
