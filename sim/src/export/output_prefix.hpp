#pragma once
// The output prefix (-e) is checked before anything runs: a simulation of minutes must
// not end with "cannot write output file" because the folder was never there.
#include <string>

namespace datasched {

/// Why files named `prefix`_jobs.csv etc. cannot be written ("" when they can): the
/// folder they go to is missing, is not a folder, or is not writable.
std::string output_folder_problem(const std::string& prefix);

} // namespace datasched
