#pragma once
// Batsim 4 profiles: what a job does once started.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/phase_profile.hpp"

namespace datasched {

/// Largest date or duration Batsim 4.2.1 can run, and so the engine: 1e23 s (the double
/// 99999999999999991611392). Batsim reads any finite number and runs SimGrid's double clock
/// to it (its own test_long_workload.json submits at 1e17 s), but it writes every number of
/// the protocol with printf("%6f") into a 32-byte buffer and aborts on an assertion when the
/// text takes 31 characters or more (protocol.hpp, Writer::Double): a submit time, walltime
/// or delay above 1e23 (sent in JOB_SUBMITTED or SIMULATION_BEGINS), or a clock past it
/// (the next event's timestamp), stops real Batsim; here it is one error line. Checked
/// against the real build: walltime, subtime and delay of 1e23 run, 2e23 abort.
inline constexpr double kMaxTime          = 1e23;
inline constexpr const char* kMaxTimeText = "1e23";

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
