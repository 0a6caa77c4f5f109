#pragma once
// Shared helpers of the engine's fuzz entry points (issue 20).
//
// Each entry point is a libFuzzer `LLVMFuzzerTestOneInput`. The contract it checks: an
// input is accepted or refused with InputError (the one-line error the engine prints);
// any other exception escapes and terminates the process (a crash), and, in the clang
// build, AddressSanitizer / UndefinedBehaviorSanitizer reports abort it too. The same
// files build with gcc against replay_main.cpp, which runs a seed corpus plus seeded
// mutations (the CI smoke, no clang needed).
#include <cstddef>
#include <cstdint>
#include <string>

namespace datasched::fuzz {

/// The input as a string (the readers take text).
inline std::string text_of(const uint8_t* data, size_t size)
{
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Writes the input to a file private to this process and returns its path, for the
/// readers that take a file name (the same code path as the engine's command line).
std::string write_scratch_file(const std::string& name, const uint8_t* data, size_t size);

/// Reports a broken property (not an exception: a wrong result) and aborts, which both
/// libFuzzer and the replay driver record as a crash.
[[noreturn]] void property_failed(const std::string& what);

} // namespace datasched::fuzz
