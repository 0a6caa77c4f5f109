#pragma once
// A service a scheduling run carries beside its jobs, chosen by an engine option: what every
// such service does whatever its role (run_services.hpp holds them and the table that picks
// them). Its role is the narrower interface it also implements: a path for phase jobs'
// central-storage I/O (san_path.hpp) or work on the compute nodes added to the activities
// that touch them (node_service.hpp).
#include <string>

namespace datasched {

struct SimulationConfig;

class RunService {
public:
  virtual ~RunService() = default;

  /// Starts the service's own actors, once the platform and the jobs' actors are set up.
  /// They are daemons: an idle service neither prolongs the run nor deadlocks it.
  virtual void start_actors() = 0;
  /// Writes the service's output files (`<prefix>_<name>.csv`) at the end of the run; none by default.
  virtual void write_outputs(const std::string& /*prefix*/) {}
  /// Tells the decision process about the service: adds its entry to SIMULATION_BEGINS'
  /// config (`config.services`: a datasched extension key, "datasched-...", and a JSON
  /// object); nothing by default.
  virtual void announce(SimulationConfig& /*config*/) const {}
};

} // namespace datasched
