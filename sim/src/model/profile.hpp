#pragma once
// Batsim 4 profiles: what a job does once started.
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/phase_profile.hpp"

namespace datasched {

/// Largest date the engine represents: the largest finite double, as Batsim 4.2.1, which
/// reads dates as doubles and runs SimGrid's double clock to wherever they lead (its own
/// test_long_workload.json submits at 1e17 s; a walltime of 1e308 is legal). Only a date
/// that overflows to infinity (or NaN) cannot be simulated or sent in the protocol (JSON
/// has no infinity); beyond ~1e10 s a double's step exceeds the protocol's microsecond and
/// results keep the coarser resolution Batsim's have.
inline constexpr double kMaxTime          = std::numeric_limits<double>::max();
inline constexpr const char* kMaxTimeText = "1.79769e+308";

/// A date for an error message: six significant digits, so 5e+291 is not printed as a
/// 292-digit number (std::to_string's "%f").
inline std::string format_date(double seconds)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", seconds);
  return buffer;
}

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
