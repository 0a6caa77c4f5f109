// Fuzz target: the --io-forwarding experiment reader (forwarding/experiment.cpp), as the engine runs it:
// read_json_file (nesting limit, syntax errors with line and column), then every field
// checked by the one numeric reader (model/json_fields.hpp). Accepted or InputError.
#include "common/fatal.hpp"
#include "forwarding/experiment.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string path = datasched::fuzz::write_scratch_file("experiment.json", data, size);
  try {
    (void)datasched::forwarding::load_experiment(path);
  } catch (const datasched::InputError&) {
  }
  return 0;
}
