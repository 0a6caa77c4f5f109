#pragma once
// A scenario: a stand-alone experiment the engine runs instead of a scheduling simulation
// (no decision process, no workload): seed 002's I/O forwarding, seed 003's QoS staging,
// seed 004's storage-daemon interference. A scenario owns only what is its own — its
// experiment file's reader, its actors and its outputs. Everything around them is the same
// for every scenario and lives once, in run_scenario(): the outputs removed before the run
// and when it fails, the experiment read and its cost checked before SimGrid starts,
// SimGrid's start-up, the abort and deadlock messages, the optional link-load measurement,
// and the outputs written at the end. A new scenario is one class and one row of the
// table in scenarios/registry.cpp.
#include <string>
#include <vector>

namespace datasched {

struct EngineConfig;

class Scenario {
public:
  Scenario()                           = default;
  Scenario(const Scenario&)            = delete;
  Scenario& operator=(const Scenario&) = delete;
  virtual ~Scenario()                  = default;

  /// The words that name the simulation in messages: "the <title> simulation cannot
  /// progress (deadlock)", "SimGrid aborted the <title> simulation".
  virtual std::string title() const = 0;
  /// Every file the scenario may write under `prefix`, whatever its experiment asks for:
  /// they are removed before the run and when it fails, so an earlier run's outputs never
  /// look like this run's.
  virtual std::vector<std::string> output_files(const std::string& prefix) const = 0;
  /// Before SimGrid starts: reads the experiment file and refuses what needs no platform
  /// to be refused (InputError), including a run whose estimated cost is too high.
  virtual void load(const EngineConfig& config) = 0;
  /// SimGrid configuration items (`--cfg` values) selecting the models this experiment
  /// runs on; --sg-cfg options still come after them.
  virtual std::vector<std::string> simgrid_models() const { return {"host/model:ptask_L07"}; }
  /// After the platform is loaded: resolves the experiment on it and refuses what does not
  /// fit (InputError naming the file and field).
  virtual void prepare(const EngineConfig& config) = 0;
  /// Creates the scenario's actors; the simulation runs once it returns.
  virtual void start() = 0;
  /// What the deadlock message adds after "(deadlock)", e.g. ": a client waits for a
  /// reply forever"; empty by default.
  virtual std::string deadlock_detail() const { return {}; }
  /// After the run: writes the outputs (each atomically, common/csv.hpp).
  virtual void write_outputs(const std::string& prefix) = 0;
};

/// Runs `scenario` as the engine's whole run: returns 0 once its outputs are written; an
/// error that ends the run is thrown as EngineError (fatal.hpp) with every output removed.
int run_scenario(Scenario& scenario, const EngineConfig& config, const char* program_name);

} // namespace datasched
