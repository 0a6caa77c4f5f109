#pragma once
// Command line -> one immutable configuration (engine_config.hpp). Option names follow
// Batsim 4 where they mean the same thing, so scripts written for Batsim run unchanged.
#include "common/engine_config.hpp"

namespace datasched {

/// Parses argv. Returns the exit code to use when the program must stop right away
/// (help printed, or a usage error already reported), -1 to continue.
int parse_command_line(int argc, char** argv, EngineConfig& config);

} // namespace datasched
