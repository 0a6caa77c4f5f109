#pragma once
// The largest values the experiment readers accept (forwarding/, qos/, interference/ and
// the job layer's --forwarding-layer file), and why. Each field states its range with
// these (json_fields.hpp); the READMEs of the modes list them per field.
#include <cstdint>
#include <limits>

namespace datasched::limits {

/// Counts of things simulated one by one (processes, nodes, servers, forwarders, worker
/// threads, storage targets): each is at least one SimGrid actor or one queue, and a
/// million actors already takes gigabytes of stacks. A count in an `int` field can never
/// wrap with this bound (the silent 2^32 + 8 -> 8 of issue 32).
inline constexpr int kMaxCount = 1'000'000;

/// Repetitions of one simulated step (iterations, messages of a window, requests merged):
/// each is at least one simulated event; 10^9 events take days of CPU.
inline constexpr int kMaxRepetitions = 1'000'000'000;

/// Byte sizes given as integers: what a signed 64-bit integer holds, so sums of a few of
/// them and their conversion to double stay meaningful.
inline constexpr std::uint64_t kMaxBytes = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

/// Seeds: any non-negative 64-bit integer.
inline constexpr std::uint64_t kMaxSeed = kMaxBytes;

/// Simulated durations and dates of an experiment, seconds (10^12 s is 31,000 years;
/// beyond it a double's resolution is coarser than 0.1 ms).
inline constexpr double kMaxSeconds = 1e12;

/// Amounts given as numbers (flops, bytes of a message or a phase): 10^18, far beyond any
/// real job and small enough that a few sums and products stay finite.
inline constexpr double kMaxAmount = 1e18;

} // namespace datasched::limits
