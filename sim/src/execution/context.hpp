#pragma once
// State shared by the engine's actors (they all run in one OS thread, one at a time).
#include <chrono>
#include <memory>
#include <string>

#include <simgrid/s4u/Semaphore.hpp>

#include "cli.hpp"
#include "execution/energy.hpp"
#include "execution/ipc_sampling.hpp"
#include "execution/job_pool.hpp"
#include "execution/traffic.hpp"
#include "export/io_csv.hpp"
#include "export/jobs_csv.hpp"
#include "model/machines.hpp"
#include "model/platform_check.hpp"
#include "model/storage_endpoints.hpp"
#include "model/workload.hpp"
#include "protocol/writer.hpp"
#include "transport/zmq_client.hpp"

namespace datasched {

struct Context {
  explicit Context(const EngineConfig& cfg) : config(cfg) {}

  const EngineConfig& config;
  SimulationConfig protocol_config;
  Machines machines;
  Workloads workloads;
  ProtocolWriter writer;
  std::unique_ptr<ZmqClient> zmq;
  JobsCsv jobs_csv;
  IoCsv io_csv;
  StorageEndpoints storage_endpoints; ///< node DRAM/NVM endpoints and I/O servers (datasched_phases jobs)
  TrafficArbiter traffic;             ///< priorities of running activities (--traffic-policy)
  RouteChecker routes;                ///< host pairs whose route was found usable (platform_check.hpp)
  AllToAllCalibration all_to_all;     ///< scale of approximate all-to-all phases (--ipc-fanout)
  EnergyTracker energy;               ///< -E: energy readings and the energy output files

  /// Decision rounds: the server leaves the request here and releases the semaphore
  /// that the decision actor waits on (see decision_actor in request_reply.cpp).
  std::string decision_request;
  simgrid::s4u::SemaphorePtr decision_requested;

  /// The actors that run jobs (the server starts jobs, killers interrupt them).
  JobPool job_pool{this};

  // Progress and end-of-run figures.
  int nb_completed_jobs = 0;
  std::vector<std::pair<double, int>> unavailable_changes; ///< (date, +/-1) per machine
  bool simulation_completed                           = false;
  std::chrono::steady_clock::time_point wall_start    = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_progress = wall_start;

  /// Prints a progress line on stderr when the configured interval has elapsed.
  void maybe_print_progress(double now);
  /// Prints the progress line now (`done` marks the last one).
  void print_progress(double now, bool done) const;
};

} // namespace datasched
