#pragma once
// The files a scheduling run may write, `<prefix>_<suffix>`: one list for the engine (it
// removes them before a run and when a run fails, so no complete-looking file survives) and
// for the Python runner, which reads it with `datasched-sim --list-outputs` and is tested
// against it (tests/integration/engine/test_output_list.py).
#include <string>
#include <vector>

namespace datasched {

/// Every suffix a scheduling run (-w) may write, in a fixed order.
const std::vector<std::string>& scheduling_output_suffixes();

/// `prefix`_`suffix` for every suffix above.
std::vector<std::string> scheduling_output_files(const std::string& prefix);

} // namespace datasched
