// Fuzz target: the datasched_phases profile parser (model/phase_profile.cpp) on any
// JSON value, as it gets them from a workload file or a REGISTER_PROFILE decision (both
// read through the nesting limit first, as here). Accepted or InputError.
#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "common/json_text.hpp"
#include "fuzz_support.hpp"
#include "model/phase_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text = datasched::fuzz::text_of(data, size);
  if (datasched::find_excessive_nesting(text) != std::string::npos)
    return 0; // refused before any profile is read (read_json_file, the decision reader)
  const nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded())
    return 0;
  try {
    (void)datasched::PhaseProfile::from_json(value, "fuzz: profile 'p'");
  } catch (const datasched::InputError&) {
  }
  return 0;
}
