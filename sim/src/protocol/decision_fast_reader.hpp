#pragma once
// A streaming fast path for the decision messages nearly every scheduler sends.
//
// Why: the decision process answers every request (about two per job), and building
// nlohmann's DOM for each reply (a std::map and a heap node per value) was ~10 % of the
// engine's CPU on the 50k-job benchmark. This reader consumes nlohmann's SAX events
// (same lexer, so numbers are converted exactly as the DOM reader converts them) and
// fills the typed decisions directly.
//
// It only accepts what it fully understands: well-formed messages whose events are
// EXECUTE_JOB (job_id + alloc, no mapping, storage_mapping or additional_io_job),
// REJECT_JOB, KILL_JOB, CALL_ME_LATER, NOTIFY, SET_JOB_METADATA and CHANGE_JOB_STATE.
// For anything else (other event types, a missing or mistyped field, a duplicate key,
// malformed JSON, out-of-order timestamps...) it returns nothing and the caller runs the
// general DOM reader, which produces the decision or the precise error message. So the
// fast path can only change speed, never results or diagnostics.
#include <optional>
#include <string>

#include "protocol/reader.hpp"

namespace datasched {

/// The decisions of `text` when it is a valid message made only of common events;
/// nothing otherwise (the general reader then decides).
std::optional<DecisionMessage> parse_common_decisions(const std::string& text);

} // namespace datasched
