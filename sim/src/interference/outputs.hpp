#pragma once
// CSV outputs of an interference run (columns documented in sim/src/interference/README.md):
//   <prefix>_hpl.csv, <prefix>_iterations.csv, <prefix>_services.csv, <prefix>_ior.csv.
// Each is written atomically.
#include <memory>
#include <string>
#include <vector>

#include "interference/experiment.hpp"
#include "interference/hpl.hpp"
#include "interference/ior.hpp"
#include "interference/layout.hpp"
#include "services/storage_services.hpp"

namespace datasched::interference {

std::vector<std::string> output_files(const std::string& prefix);

struct RunResults {
  const HplStats& hpl;
  const IorStats& ior;
  const std::vector<std::unique_ptr<Service>>& services; ///< storage services first, then metadata
};

void write_outputs(const std::string& prefix, const Experiment& experiment, const Layout& layout,
                   const RunResults& results);

} // namespace datasched::interference
