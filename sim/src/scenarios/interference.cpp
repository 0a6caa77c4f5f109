#include "scenarios/interference.hpp"

#include <cstdio>
#include <memory>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/engine_config.hpp"
#include "common/fatal.hpp"
#include "interference/cost.hpp"
#include "interference/hpl.hpp"
#include "interference/ior.hpp"
#include "interference/layout.hpp"
#include "interference/memory.hpp"
#include "interference/outputs.hpp"
#include "interference/simgrid_model.hpp"
#include "services/idle_load.hpp"
#include "services/storage_services.hpp"

namespace datasched::interference {

namespace {

namespace sg4 = simgrid::s4u;

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

/// One idle load per service (services/idle_load.hpp), in output order, phases drawn from one
/// generator seeded with the experiment's seed: idle bursts of different nodes do not line up, as
/// on a real machine ("aligned": every phase is 0, the synchronised noise a co-scheduled OS would give).
void start_idle_actors(const Experiment& e, ServiceSet& set)
{
  const std::vector<double> phases = idle_phases(set.storage.size() + set.metadata.size(), e.costs, e.seed);
  std::size_t index                = 0;
  for (auto* group : {&set.storage, &set.metadata})
    for (auto& service : *group) {
      service->start_idle_load("idle-" + std::to_string(index), phases[index]);
      ++index;
    }
}

/// Seed 004's experiment as a scenario (scenarios/scenario.hpp).
class InterferenceScenario final : public Scenario {
public:
  std::string title() const override { return "interference"; }

  std::vector<std::string> output_files(const std::string& prefix) const override
  {
    return interference::output_files(prefix);
  }

  void load(const EngineConfig& config) override { experiment_ = load_experiment(config.scenario_file); }

  std::vector<std::string> simgrid_models() const override { return simgrid_options(experiment_.model); }

  void prepare(const EngineConfig& config) override
  {
    layout_ = resolve_layout(experiment_, config.platform_file);
    check_costs(experiment_, layout_, config.allow_long_run);
  }

  void start() override
  {
    memories_ = NodeMemories(experiment_, layout_); // after the layout took each host's first <disk>
    services_ = create_services(experiment_, layout_, memories_);
    start_idle_actors(experiment_, services_);
    if (!layout_.ior.empty())
      start_ior(experiment_, layout_.ior, services_.storage, services_.metadata, ior_);
    // The HPL job is the only actor that is not a daemon: the run ends with its last
    // iteration, as the paper's IOR job was killed when HPL completed.
    sg4::Actor::create("hpl", layout_.hpl.front(), [this]() {
      run_hpl(experiment_.hpl, layout_.hpl, experiment_.model, experiment_.memory.hpl_bytes_per_flop, memories_, hpl_);
    });
  }

  void write_outputs(const std::string& prefix) override
  {
    for (auto* group : {&services_.storage, &services_.metadata})
      for (auto& s : *group)
        services_.all.push_back(std::move(s));
    interference::write_outputs(prefix, experiment_, layout_, RunResults{hpl_, ior_, services_.all});
  }

private:
  Experiment experiment_;
  Layout layout_;
  NodeMemories memories_;
  ServiceSet services_;
  HplStats hpl_;
  IorStats ior_;
};

} // namespace

std::unique_ptr<Scenario> make_interference_scenario()
{
  return std::make_unique<InterferenceScenario>();
}

} // namespace datasched::interference
