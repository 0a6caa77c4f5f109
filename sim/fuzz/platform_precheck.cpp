// Fuzz target: the platform checks that run before SimGrid parses the file
// (model/platform_check.cpp: routing= values, element lines). The checks on the loaded
// platform need SimGrid's parser, which is not ours to fuzz (and aborts on some inputs
// by design; the engine turns that abort into one line, see fatal.hpp). Accepted or
// InputError.
#include "common/fatal.hpp"
#include "fuzz_support.hpp"
#include "model/platform_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string path = datasched::fuzz::write_scratch_file("platform.xml", data, size);
  try {
    datasched::precheck_platform_file(path);
  } catch (const datasched::InputError&) {
  }
  const std::string text = datasched::fuzz::text_of(data, size);
  for (const char* tag : {"host", "link", "zone", "cluster"})
    (void)datasched::xml_element_line(text, tag, "a");
  return 0;
}
