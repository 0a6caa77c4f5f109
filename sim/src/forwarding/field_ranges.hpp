#pragma once
// The ranges of the forwarding layer's fields, shared by the two files that describe one:
// the --io-forwarding experiment (experiment.cpp) and the job layer's --forwarding-layer
// file (job_layer.cpp). README.md lists them.
#include "model/input_limits.hpp"
#include "model/json_fields.hpp"

namespace datasched::forwarding {

/// TWINS window, seconds: at least 1 ns (SimGrid's timing precision; a shorter window
/// could not be told from the next one).
inline const NumberRange kWindowRange{1e-9, false, limits::kMaxSeconds, "seconds"};

/// Dispatches a forwarder has outstanding: one worker actor each.
inline const IntegerRange<int> kMaxInFlightRange{1, limits::kMaxCount, "dispatches, one worker actor each"};

/// HBRR: client requests merged into one dispatch.
inline const IntegerRange<int> kAggregationRange{1, limits::kMaxCount, "requests"};

} // namespace datasched::forwarding
