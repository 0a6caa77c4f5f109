#pragma once
// Batsim workloads: jobs and profiles, loaded from JSON or registered dynamically.
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/job.hpp"
#include "model/profile.hpp"
#include "model/run_cost.hpp"

namespace datasched {

/// A named data item that exists before the simulation starts (seed 001 workflows).
struct InitialItem {
  std::string name;
  double bytes = 0;
};

/// The `datasched_data` list of a workload file (workloads/README.md section 4): the
/// entries with producer null. Throws InputError naming the file and entry.
std::vector<InitialItem> parse_initial_items(const nlohmann::json& data, const std::string& where);

struct Workload {
  std::string name; ///< "w0", "w1"... or a dynamic workload's name
  std::string file; ///< absolute path, empty for dynamic workloads
  bool is_static = true;
  std::map<std::string, Profile> profiles;
  std::vector<Job*> static_jobs; ///< jobs from the file, in file order
  /// `datasched_data` entries with producer null: items on central storage at t = 0.
  std::vector<InitialItem> initial_items;
};

class Workloads {
public:
  /// Loads `path` as workload `name`. Throws InputError naming the file and line or job.
  Workload& load_file(const std::string& name, const std::string& path);

  Workload& get_or_create_dynamic(const std::string& name);
  Workload* find_workload(const std::string& name);
  const std::map<std::string, std::unique_ptr<Workload>>& workloads() const { return workloads_; }

  /// Adds a job from its JSON description (file loading and REGISTER_JOB).
  /// Throws InputError for a duplicate id, an unknown profile or invalid fields.
  Job& add_job(Workload& workload, const nlohmann::json& object, const std::string& where);
  /// Adds a profile; throws InputError when a profile with that name exists.
  Profile& add_profile(Workload& workload, const std::string& name, const nlohmann::json& object,
                       const std::string& where);

  Job* find_job(const std::string& full_id);
  /// The jobs in state Running, by id.
  std::vector<Job*> running_jobs() const;
  const Profile& profile_of(const Job& job) const;
  size_t nb_jobs() const { return jobs_.size(); }

  /// Checks that composed profiles only reference existing profiles, without cycles.
  void check_profile_references(const Workload& workload, const std::string& where) const;

  /// The most steps a profile of `workload` expands to: a composed profile runs its sequence
  /// `repeat` times, each profile of it a step (recursively); the run-cost check weighs it,
  /// since a repeat of 2^31 - 1 is a run of years. Call after check_profile_references.
  RunCost largest_profile(const Workload& workload) const;

private:
  std::map<std::string, std::unique_ptr<Workload>> workloads_;
  std::unordered_map<std::string, std::unique_ptr<Job>> jobs_;
};

} // namespace datasched
