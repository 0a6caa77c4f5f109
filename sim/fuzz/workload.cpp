// Fuzz target: the engine's workload reader (model/workload.cpp), as `-w FILE` runs it:
// read_json_file (nesting limit, syntax errors with line and column), then every
// profile and job checked. Accepted or InputError; nothing else.
#include "model/workload.hpp"
#include "common/fatal.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string path = datasched::fuzz::write_scratch_file("workload.json", data, size);
  try {
    datasched::Workloads workloads;
    datasched::Workload& loaded = workloads.load_file("w0", path);
    for (const datasched::Job* job : loaded.static_jobs)
      (void)workloads.profile_of(*job); // every job's profile exists once loading succeeded
  } catch (const datasched::InputError&) {
  }
  return 0;
}
