#pragma once
// State shared by the engine's actors (they all run in one OS thread, one at a time).
#include <chrono>
#include <memory>
#include <string>

#include <simgrid/s4u/Semaphore.hpp>

#include "common/engine_config.hpp"
#include "execution/energy.hpp"
#include "execution/ipc_sampling.hpp"
#include "execution/job_pool.hpp"
#include "execution/run_services.hpp"
#include "execution/traffic.hpp"
#include "export/data_csv.hpp"
#include "export/io_csv.hpp"
#include "export/jobs_csv.hpp"
#include "export/machine_states_csv.hpp"
#include "export/nvm_csv.hpp"
#include "model/data_registry.hpp"
#include "model/machine_states.hpp"
#include "model/machines.hpp"
#include "model/page_cache.hpp"
#include "model/platform_check.hpp"
#include "model/storage_endpoints.hpp"
#include "model/workload.hpp"
#include "protocol/writer.hpp"
#include "transport/decision_channel.hpp"

namespace datasched {

struct Context {
  explicit Context(const EngineConfig& cfg) : config(cfg) {}

  const EngineConfig& config;
  SimulationConfig protocol_config;
  Machines machines;
  Workloads workloads;
  ProtocolWriter writer;
  std::unique_ptr<DecisionChannel> decisions; ///< ZmqClient, or a CallbackChannel in process
  JobsCsv jobs_csv;
  MachineStates machine_states;        ///< each resource's state over time, Batsim's accounting
  MachineStatesCsv machine_states_csv; ///< Batsim's rows: one after each job start and end
  IoCsv io_csv;
  DataRegistry data;                           ///< named data items that persist between jobs (seed 001 workflows)
  DataCsv data_csv;                            ///< their movements
  PageCache page_cache;                        ///< node page caches in front of item I/O (page_cache.hpp)
  NvmCsv nvm_csv;                              ///< node NVM occupancy over time (data_registry's accounting)
  StorageEndpoints storage_endpoints;          ///< node DRAM/NVM endpoints and I/O servers (datasched_phases jobs)
  TrafficArbiter traffic;                      ///< priorities of running activities (--traffic-policy)
  StorageTransfers storage_transfers{traffic}; ///< the arbiter seen by the forwarding layer's transfers
  RouteChecker routes;                         ///< host pairs whose route was found usable (platform_check.hpp)
  AllToAllCalibration all_to_all;              ///< scale of approximate all-to-all phases (--ipc-fanout)
  EnergyTracker energy;                        ///< -E: energy readings and the energy output files
  /// The services the run carries beside its jobs (execution/run_services.hpp): a SAN path
  /// (--forwarding-layer, --staging-layer) and a service on the compute nodes (--storage-daemons).
  RunServices services;

  /// Decision rounds: the server leaves the request here and releases the semaphore
  /// that the decision actor waits on (see decision_actor in request_reply.cpp).
  std::string decision_request;
  simgrid::s4u::SemaphorePtr decision_requested;

  /// The actors that run jobs (the server starts jobs, killers interrupt them).
  JobPool job_pool{this};

  // Progress and end-of-run figures.
  int nb_completed_jobs                               = 0;
  bool simulation_completed                           = false;
  std::chrono::steady_clock::time_point wall_start    = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_progress = wall_start;

  /// A job starts or ends on its hosts (at its start, end or kill date, where Batsim's
  /// job actor or killer updates them): their states change and Batsim writes a row.
  void machines_job_started(const Job& job, double now);
  void machines_job_ended(const Job& job, double now);
  /// -E: a host enters a step of its sleep cycle (On = idle after a switch on); its
  /// machine state follows, as Batsim's update_machine_state (no row: callers write it
  /// where Batsim does).
  void set_power_state(Machine& machine, PowerState state, double now);

  /// Cancels the SimGrid activities of every running job (the run is being stopped by
  /// an error: fatal.hpp, set_before_kill_all). Their workers are killed next.
  void cancel_running_activities();
  /// Cancels the SimGrid activities of one job's profile frames (KILL_JOB, and the above).
  void cancel_activities(Job& job);

  /// Prints a progress line on stderr when the configured interval has elapsed.
  void maybe_print_progress(double now);
  /// Prints the progress line now (`done` marks the last one).
  void print_progress(double now, bool done) const;
};

} // namespace datasched
