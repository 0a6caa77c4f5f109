#pragma once
// Batsim 4 profiles: what a job does once started.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/batsim_numbers.hpp"
#include "model/phase_profile.hpp"

namespace datasched {

enum class ProfileType {
  Delay,                    ///< sleeps, uses no resource
  Parallel,                 ///< explicit cpu vector + communication matrix (one ptask)
  ParallelHomogeneous,      ///< same cpu on every host, same bytes on every host pair
  ParallelHomogeneousTotal, ///< like ParallelHomogeneous, amounts divided by the host count
  Composed,                 ///< sequence of other profiles, repeated
  ParallelHomogeneousPfs,   ///< bytes read/written between the hosts and a storage host
  DataStaging,              ///< bytes moved from one storage host to another
  Phases,                   ///< datasched extension: phase-based application on the storage model
};

std::string profile_type_to_string(ProfileType type);

struct Profile {
  std::string name;
  ProfileType type = ProfileType::Delay;
  std::string json_description; ///< the profile object as given (compact JSON)
  int return_code = 0;          ///< optional "ret": non-zero makes the job COMPLETED_FAILED

  double delay = 0;                           // Delay
  std::vector<double> cpu;                    // Parallel: one amount per executor
  std::vector<double> com;                    // Parallel: row-major n*n bytes (from row to column)
  double cpu_amount = 0;                      // ParallelHomogeneous(Total)
  double com_amount = 0;                      // ParallelHomogeneous(Total)
  int repeat        = 1;                      // Composed
  std::vector<std::string> sequence;          // Composed
  double bytes_to_read      = 0;              // ParallelHomogeneousPfs
  double bytes_to_write     = 0;              // ParallelHomogeneousPfs
  std::string storage_label = "pfs";          // ParallelHomogeneousPfs
  double nb_bytes           = 0;              // DataStaging
  std::string from_label;                     // DataStaging
  std::string to_label;                       // DataStaging
  std::shared_ptr<const PhaseProfile> phases; // Phases

  /// Parses and validates one profile. `where` prefixes error messages (file name).
  /// Throws InputError for unknown or unsupported types and invalid fields.
  static Profile from_json(const std::string& name, const nlohmann::json& object, const std::string& where);
};

} // namespace datasched
