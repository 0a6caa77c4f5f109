#pragma once
// The Batsim configuration switches: set from the command line, sent to the decision
// process in SIMULATION_BEGINS, and consulted by the server.
namespace datasched {

struct SimulationConfig {
  bool dynamic_jobs_enabled             = false;
  bool dynamic_jobs_acknowledged        = false;
  bool profiles_forwarded_on_submission = false;
  bool profile_reuse_enabled            = false;
  bool forward_unknown_events           = false;
  bool allow_compute_sharing            = false;
  bool allow_storage_sharing            = true;
};

} // namespace datasched
