#include "scenarios/scenario.hpp"

#include <simgrid/s4u/Engine.hpp>

#include "common/csv.hpp"
#include "common/engine_config.hpp"
#include "common/fatal.hpp"
#include "execution/simulation.hpp"
#include "export/links_csv.hpp"

namespace datasched {

int run_scenario(Scenario& scenario, const EngineConfig& config, const char* program_name)
{
  auto outputs = scenario.output_files(config.export_prefix);
  outputs.push_back(link_load_file(config.export_prefix));
  remove_output_files(outputs);
  set_fatal_cleanup([outputs]() { remove_output_files(outputs); });
  try {
    scenario.load(config);
    init_simgrid(config, program_name, scenario.simgrid_models());
    scenario.prepare(config);
  } catch (const InputError& e) {
    fatal(e.what());
  }
  LinkLoadCsv link_load; // --link-load-window (export/links_csv.hpp)
  link_load.start(config.link_load_window);
  const std::string title = scenario.title();
  install_abort_handler("SimGrid aborted the " + title + " simulation (its message is above)", outputs);
  // Recorded, not thrown: SimGrid's kernel runs the callback and stops the actors itself
  // right after it (fatal.hpp).
  simgrid::s4u::Engine::on_deadlock_cb([title, detail = scenario.deadlock_detail()]() {
    record_engine_error(EngineError("the " + title + " simulation cannot progress (deadlock)" + detail));
  });
  scenario.start();
  simgrid::s4u::Engine::get_instance()->run();
  throw_recorded_engine_error();
  try {
    scenario.write_outputs(config.export_prefix);
    link_load.write_if_measured(config.export_prefix);
  } catch (const std::exception& e) {
    fatal(e.what());
  }
  return 0;
}

} // namespace datasched
