#pragma once
// The Batsim configuration switches: set from the command line, sent to the decision
// process in SIMULATION_BEGINS, and consulted by the server.
#include <map>
#include <string>

namespace datasched {

struct SimulationConfig {
  bool dynamic_jobs_enabled             = false;
  bool dynamic_jobs_acknowledged        = false;
  bool profiles_forwarded_on_submission = false;
  bool profile_reuse_enabled            = false;
  bool forward_unknown_events           = false;
  bool allow_compute_sharing            = false;
  bool allow_storage_sharing            = true;
  /// datasched extension (--datasched-item-evictions): send DATASCHED_ITEM_EVICTED when the
  /// engine evicts a named data item from node NVM. Off by default: the protocol stream,
  /// SIMULATION_BEGINS included, is then exactly Batsim's.
  bool item_evictions_notified = false;
  /// datasched extension: the services the run carries (execution/run_services.hpp), each as
  /// its config key ("datasched-storage-daemons", "datasched-staging-servers") and a JSON
  /// object, so that a policy knows which nodes host them; empty (nothing sent) without one.
  std::map<std::string, std::string> services;
};

} // namespace datasched
