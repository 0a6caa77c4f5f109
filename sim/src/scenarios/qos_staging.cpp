#include "scenarios/qos_staging.hpp"

#include <cstdio>
#include <memory>
#include <random>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/engine_config.hpp"
#include "common/fatal.hpp"
#include "model/run_cost.hpp"
#include "qos/benchmarks.hpp"
#include "qos/experiment.hpp"
#include "qos/flows.hpp"
#include "qos/outputs.hpp"
#include "services/staging_server.hpp"

namespace datasched::qos {

namespace {

namespace sg4 = simgrid::s4u;

/// The experiment's host names, resolved against the loaded platform.
struct Hosts {
  std::vector<sg4::Host*> benchmark;
  std::vector<sg4::Host*> noise;
  std::vector<sg4::Host*> writes;
  std::vector<std::pair<sg4::Host*, sg4::Host*>> transfers;
};

class Resolver {
public:
  Resolver(const std::string& file, const std::string& platform) : file_(file), platform_(platform) {}

  sg4::Host* host(const std::string& name, const std::string& field) const
  {
    auto* h = sg4::Host::by_name_or_null(name);
    if (!h)
      throw InputError(file_ + ": " + field + ": no host '" + name + "' in platform '" + platform_ + "'");
    return h;
  }

  /// A flow from `a` to `b` needs a route with at least one link (not the same host, not
  /// across the unconnected IB and storage-network zones).
  void route(sg4::Host* a, sg4::Host* b, const std::string& field) const
  {
    if (a == b)
      throw InputError(file_ + ": " + field + ": a flow from '" + a->get_name() + "' to itself has no network route");
    std::vector<sg4::Link*> links;
    double latency = 0;
    try {
      a->route_to(b, links, &latency);
    } catch (const std::exception&) {
      links.clear();
    }
    if (links.empty())
      throw InputError(file_ + ": " + field + ": no network route from '" + a->get_name() + "' to '" + b->get_name() +
                       "' in platform '" + platform_ + "'");
  }

private:
  const std::string& file_;
  const std::string& platform_;
};

class Run {
public:
  Run(const Experiment& e, const std::string& platform) : e_(e), flows_(e.arbitration, e.used_service_levels)
  {
    Resolver r(e.file, platform);
    if (e.benchmark)
      for (std::size_t i = 0; i < e.benchmark->hosts.size(); ++i)
        hosts_.benchmark.push_back(r.host(e.benchmark->hosts[i], "benchmark.hosts[" + std::to_string(i) + "]"));
    if (e.noise)
      for (std::size_t i = 0; i < e.noise->writers.size(); ++i)
        hosts_.noise.push_back(r.host(e.noise->writers[i], "noise.writers[" + std::to_string(i) + "]"));
    for (std::size_t i = 0; i < e.writes.size(); ++i)
      hosts_.writes.push_back(r.host(e.writes[i].host, "writes[" + std::to_string(i) + "].host"));
    for (std::size_t i = 0; i < e.transfers.size(); ++i) {
      const auto where = "transfers[" + std::to_string(i) + "]";
      hosts_.transfers.emplace_back(r.host(e.transfers[i].src, where + ".src"),
                                    r.host(e.transfers[i].dst, where + ".dst"));
      r.route(hosts_.transfers.back().first, hosts_.transfers.back().second, where);
    }
    if (e.benchmark)
      for (const auto& [a, b] : benchmark_pairs(*e.benchmark))
        r.route(hosts_.benchmark[static_cast<std::size_t>(a)], hosts_.benchmark[static_cast<std::size_t>(b)],
                "benchmark.hosts");
    if (e.staging) {
      const auto& s = *e.staging;
      auto* server  = r.host(s.server, "staging.server");
      auto* disk    = staging_disk(server, s.disk, s.where + ".server", s.where + ".disk");
      auto* port    = r.host(s.port, "staging.port");
      auto* pfs     = r.host(s.pfs, "staging.pfs");
      r.route(port, pfs, "staging.pfs");
      for (std::size_t i = 0; i < hosts_.noise.size(); ++i)
        r.route(hosts_.noise[i], server, "noise.writers[" + std::to_string(i) + "]");
      for (std::size_t i = 0; i < hosts_.writes.size(); ++i)
        r.route(hosts_.writes[i], server, "writes[" + std::to_string(i) + "].host");
      pfs_ = pfs;
      staging_ =
          std::make_unique<StagingServer>(s.params, server, disk, port, staging_capacity(s.capacity, disk, s.where),
                                          staging_flows_, e.writes.size(), e.seed);
    }
    results_.transfers.resize(e.transfers.size());
    results_.writes.resize(e.writes.size());
  }

  void start_actors()
  {
    if (staging_)
      staging_->start_actors();
    if (e_.benchmark)
      sg4::Actor::create("benchmark", hosts_.benchmark[0], [this]() {
        results_.benchmark = run_benchmark(*e_.benchmark, hosts_.benchmark, flows_);
        benchmark_done_    = true;
      });
    if (e_.noise)
      for (std::size_t i = 0; i < hosts_.noise.size(); ++i)
        sg4::Actor::create("noise" + std::to_string(i), hosts_.noise[i], [this, i]() { noise_writer(i); })->daemonize();
    for (std::size_t i = 0; i < e_.writes.size(); ++i)
      sg4::Actor::create("write" + std::to_string(i), hosts_.writes[i], [this, i]() { write(i); });
    for (std::size_t i = 0; i < e_.transfers.size(); ++i)
      sg4::Actor::create("transfer" + std::to_string(i), hosts_.transfers[i].first, [this, i]() { transfer(i); });
  }

  Results& results()
  {
    results_.staging        = staging_.get();
    results_.activities     = flows_.started();
    results_.max_concurrent = flows_.max_concurrent();
    results_.simulated_time = sg4::Engine::get_clock();
    results_.weighted       = flows_.weighted();
    return results_;
  }

private:
  /// One dd thread: blocks back to back until the benchmark has ended.
  void noise_writer(std::size_t i)
  {
    const auto& n = *e_.noise;
    // One generator per writer, from the experiment's seed and the writer's index.
    std::seed_seq seeds{e_.seed, static_cast<std::uint64_t>(i)};
    std::mt19937_64 rng(seeds);
    sg4::this_actor::sleep_until(n.start);
    while (!benchmark_done_) {
      if (n.jitter > 0)
        sg4::this_actor::sleep_for(n.jitter * (static_cast<double>(rng() >> 11) * 0x1.0p-53));
      staging_->write_block(hosts_.noise[i], n.block_size, n.sl, -1, pfs_);
      results_.noise_bytes += n.block_size;
    }
  }

  void write(std::size_t i)
  {
    const auto& w = e_.writes[i];
    auto& result  = results_.writes[i];
    sg4::this_actor::sleep_until(w.start);
    result.start = sg4::Engine::get_clock();
    for (double left = w.bytes; left > 0; left -= w.block_size)
      staging_->write_block(hosts_.writes[i], std::min(left, w.block_size), w.sl, static_cast<int>(i), pfs_);
    result.absorbed = sg4::Engine::get_clock();
    result.drained  = staging_->wait_drained(static_cast<int>(i));
  }

  void transfer(std::size_t i)
  {
    const auto& t = e_.transfers[i];
    auto& result  = results_.transfers[i];
    sg4::this_actor::sleep_until(t.start);
    result.start    = sg4::Engine::get_clock();
    result.priority = flows_.priority(t.sl);
    flows_.transfer(hosts_.transfers[i].first, hosts_.transfers[i].second, t.bytes, t.sl);
    result.end = sg4::Engine::get_clock();
  }

  const Experiment& e_;
  FlowLauncher flows_;
  StagingFlows staging_flows_{flows_};
  Hosts hosts_;
  sg4::Host* pfs_ = nullptr; ///< where the staging server drains
  std::unique_ptr<StagingServer> staging_;
  Results results_;
  bool benchmark_done_ = false;
};

/// Seed 003's experiment as a scenario (scenarios/scenario.hpp).
class QosStagingScenario final : public Scenario {
public:
  std::string title() const override { return "QoS staging"; }

  std::vector<std::string> output_files(const std::string& prefix) const override { return qos::output_files(prefix); }

  void load(const EngineConfig& config) override
  {
    experiment_ = load_experiment(config.scenario_file);
    check_run_cost(experiment_.file, "benchmark.iterations", benchmark_cost(experiment_), config.allow_long_run);
  }

  void prepare(const EngineConfig& config) override
  {
    // Routing tables are built when the platform is sealed; routes are checked by Run.
    sg4::Engine::get_instance()->seal_platform();
    run_ = std::make_unique<Run>(experiment_, config.platform_file);
  }

  void start() override { run_->start_actors(); }

  void write_outputs(const std::string& prefix) override { qos::write_outputs(prefix, experiment_, run_->results()); }

private:
  Experiment experiment_;
  std::unique_ptr<Run> run_;
};

} // namespace

std::unique_ptr<Scenario> make_qos_staging_scenario()
{
  return std::make_unique<QosStagingScenario>();
}

} // namespace datasched::qos
