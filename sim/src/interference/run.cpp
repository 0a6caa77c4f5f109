#include "interference/run.hpp"

#include <cstdio>
#include <memory>
#include <random>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "cli.hpp"
#include "execution/simulation.hpp"
#include "export/links_csv.hpp"
#include "fatal.hpp"
#include "interference/cost.hpp"
#include "interference/hpl.hpp"
#include "interference/ior.hpp"
#include "interference/layout.hpp"
#include "interference/memory.hpp"
#include "interference/outputs.hpp"
#include "interference/services.hpp"

namespace datasched::interference {

namespace {

namespace sg4 = simgrid::s4u;

void remove_files(const std::vector<std::string>& files)
{
  for (const auto& path : files) {
    std::remove(path.c_str());
    std::remove((path + ".tmp").c_str());
  }
}

/// The experiment's services, storage targets first (in list order), then metadata.
struct ServiceSet {
  std::vector<std::unique_ptr<Service>> storage;
  std::vector<std::unique_ptr<Service>> metadata;
  std::vector<std::unique_ptr<Service>> all; ///< owns them, in output order
};

ServiceSet create_services(const Experiment& e, const Layout& layout, const NodeMemories& memories)
{
  ServiceSet set;
  for (std::size_t i = 0; i < layout.storage.size(); ++i)
    set.storage.push_back(std::make_unique<Service>(ServiceKind::Storage, layout.storage[i], layout.storage_disks[i],
                                                    e.services.storage_workers, e.costs, memories.of(layout.storage[i]),
                                                    e.memory.io_copies));
  for (auto* host : layout.metadata)
    set.metadata.push_back(
        std::make_unique<Service>(ServiceKind::Metadata, host, nullptr, e.services.metadata_workers, e.costs));
  return set;
}

/// One idle actor per service, each starting at a phase drawn uniformly in
/// [0, idle_period) from one generator seeded with the experiment's seed, services in
/// output order: idle bursts of different nodes do not line up, as on a real machine
/// ("aligned": every phase is 0, the synchronised noise a co-scheduled OS would give).
void start_idle_actors(const Experiment& e, ServiceSet& set)
{
  if (idle_burst(e.costs) <= 0)
    return;
  std::mt19937_64 rng(e.seed);
  int index = 0;
  for (auto* group : {&set.storage, &set.metadata})
    for (auto& service : *group) {
      const double u     = static_cast<double>(rng() >> 11) * 0x1.0p-53; // uniform [0, 1)
      const double phase = e.costs.idle_aligned ? 0.0 : u * e.costs.idle_period;
      Service* s         = service.get();
      sg4::Actor::create("idle-" + std::to_string(index++), s->host(), [s, phase]() {
        s->idle_loop(phase);
      })->daemonize();
    }
}

} // namespace

int run_interference(const EngineConfig& config, const char* program_name)
{
  // Every file this mode writes goes first: a failed run must not leave a previous
  // run's outputs looking like its own.
  auto outputs = output_files(config.export_prefix);
  outputs.push_back(link_load_file(config.export_prefix));
  remove_files(outputs);
  set_fatal_cleanup([outputs]() { remove_files(outputs); });
  Experiment experiment;
  Layout layout;
  try {
    experiment = load_experiment(config.interference_experiment);
    init_simgrid(config, program_name, simgrid_options(experiment.model));
    layout = resolve_layout(experiment, config.platform_file);
    check_costs(experiment, layout, config.allow_long_run);
  } catch (const InputError& e) {
    fatal(e.what());
  }
  LinkLoadCsv link_load; // --link-load-window (export/links_csv.hpp)
  link_load.start(config.link_load_window);
  install_abort_handler("SimGrid aborted the interference simulation (its message is above)", outputs);
  sg4::Engine::on_deadlock_cb([]() { fatal("the interference simulation cannot progress (deadlock)"); });

  const NodeMemories memories(experiment, layout); // after the layout took each host's first <disk>
  ServiceSet services = create_services(experiment, layout, memories);
  HplStats hpl;
  IorStats ior;
  start_idle_actors(experiment, services);
  if (!layout.ior.empty())
    start_ior(experiment, layout.ior, services.storage, services.metadata, ior);
  // The HPL job is the only actor that is not a daemon: the run ends with its last
  // iteration, as the paper's IOR job was killed when HPL completed.
  sg4::Actor::create("hpl", layout.hpl.front(), [&]() {
    run_hpl(experiment.hpl, layout.hpl, experiment.model, experiment.memory.hpl_bytes_per_flop, memories, hpl);
  });
  sg4::Engine::get_instance()->run();

  for (auto* group : {&services.storage, &services.metadata})
    for (auto& s : *group)
      services.all.push_back(std::move(s));
  try {
    write_outputs(config.export_prefix, experiment, layout, RunResults{hpl, ior, services.all});
    link_load.write_if_measured(config.export_prefix);
  } catch (const std::exception& e) {
    fatal(e.what());
  }
  return 0;
}

} // namespace datasched::interference
