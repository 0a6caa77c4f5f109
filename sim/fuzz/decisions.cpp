// Fuzz target: the decision readers (protocol/reader.cpp, the general DOM reader, and
// protocol/decision_fast_reader.cpp). Each reply is accepted or refused with InputError,
// and the engine's entry point (fast path, then the general reader) must give exactly
// what the general reader alone gives: the same decisions or the same error message.
#include "common/fatal.hpp"
#include "fuzz_support.hpp"
#include "protocol/decision_text.hpp"
#include "protocol/reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text    = datasched::fuzz::text_of(data, size);
  const std::string general = datasched::decision_outcome(datasched::parse_decision_message_generic, text);
  const std::string engine  = datasched::decision_outcome(datasched::parse_decision_message, text);
  if (general != engine)
    datasched::fuzz::property_failed("the fast decision reader disagrees with the general one:\n  general: " + general +
                                     "\n  engine:  " + engine);
  return 0;
}
