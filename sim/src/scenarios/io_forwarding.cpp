#include "scenarios/io_forwarding.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Io.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "common/engine_config.hpp"
#include "common/fatal.hpp"
#include "common/transfer.hpp"
#include "forwarding/layout.hpp"
#include "forwarding/outputs.hpp"
#include "model/run_cost.hpp"
#include "services/forwarding_requests.hpp"
#include "services/forwarding_schedulers.hpp"
#include "services/forwarding_service.hpp"
#include "services/hdd.hpp"

namespace datasched::forwarding {

namespace {

namespace sg4 = simgrid::s4u;

/// One client process of an application; it has at most one request outstanding (the
/// MPI-IO Test benchmark issues blocking requests), so its index identifies that request.
struct Process {
  int application = 0;
  int node        = 0;
  sg4::Host* host = nullptr;
  double start    = 0;
  std::vector<FileRange> requests;
};

class Run {
public:
  Run(const Experiment& experiment, Layout layout)
      : e_(experiment), layout_(std::move(layout)),
        service_(e_.forwarding, layout_.forwarders, layout_.servers, layout_.disks, e_.control_bytes, e_.dispatch_trace,
                 e_.servers.hdd_alpha, e_.servers.hdd_seek_scale, e_.servers.cache)
  {
    striping_.stripe_size = e_.servers.stripe_size;
    striping_.servers     = e_.servers.count;
    stats_.applications.resize(e_.applications.size());
    create_processes();
  }

  void start_actors()
  {
    service_.start_caches();
    if (e_.forwarded)
      service_.start_workers();
    for (std::size_t p = 0; p < processes_.size(); ++p)
      start_client(static_cast<int>(p), 0);
  }

  const Statistics& stats()
  {
    stats_.forwarders = service_.forwarder_stats();
    stats_.servers    = service_.server_stats();
    stats_.dispatches = service_.dispatch_records();
    return stats_;
  }
  const Layout& layout() const { return layout_; }

private:
  /// Process slots are filled node by node (node 0's processes first); application a
  /// takes the next `processes` slots. Start jitters are drawn in that order from one
  /// generator seeded with the experiment's seed. Every file is striped over all the
  /// servers (file f from server f mod S).
  void create_processes()
  {
    std::mt19937_64 rng(e_.seed);
    int slot       = 0;
    int first_file = 0;
    for (std::size_t a = 0; a < e_.applications.size(); ++a) {
      const auto& app = e_.applications[a];
      for (int rank = 0; rank < app.processes; ++rank, ++slot) {
        Process p;
        p.application  = static_cast<int>(a);
        p.node         = slot / e_.processes_per_node;
        p.host         = layout_.clients[static_cast<std::size_t>(p.node)];
        const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53; // uniform [0, 1)
        p.start        = app.start + app.jitter * u;
        p.requests     = process_requests(app, rank, first_file);
        processes_.push_back(std::move(p));
      }
      const auto placement = std::make_shared<const FilePlacement>(FilePlacement{striping_, {}});
      for (int f = 0; f < files_of(app); ++f)
        service_.open_file(placement);
      first_file += files_of(app);
    }
  }

  /// Without forwarding a client process reads and writes the servers' disks itself,
  /// and SimGrid 3.32 keeps every disk activity in its creator's activity list until the
  /// actor ends (Service::kDispatchesPerWorkerActor says why that is quadratic). So a
  /// direct client hands over to a fresh actor on its host every this many requests,
  /// between two requests, when it holds nothing. Forwarded clients create no disk
  /// activity (their transfers leave the list) and stay one actor.
  static constexpr std::size_t kDirectRequestsPerClientActor = 64;

  void start_client(int index, std::size_t first_request)
  {
    const auto& p = processes_[static_cast<std::size_t>(index)];
    sg4::Actor::create("process" + std::to_string(index), p.host, [this, index, first_request]() {
      run_actor_guarded([this, index, first_request] { client_process(index, first_request); });
    });
  }

  void client_process(int index, std::size_t first_request)
  {
    Process& p      = processes_[static_cast<std::size_t>(index)];
    const auto& app = e_.applications[static_cast<std::size_t>(p.application)];
    auto& app_stats = stats_.applications[static_cast<std::size_t>(p.application)];
    if (first_request == 0) {
      sg4::this_actor::sleep_until(p.start);
      const double now = sg4::Engine::get_clock();
      if (app_stats.first_start < 0 || now < app_stats.first_start)
        app_stats.first_start = now;
    }
    const std::size_t last =
        e_.forwarded ? p.requests.size() : std::min(p.requests.size(), first_request + kDirectRequestsPerClientActor);
    for (std::size_t r = first_request; r < last; ++r) {
      const auto& range = p.requests[r];
      if (e_.forwarded)
        forward(index, range, app.operation);
      else
        service_.serve(p.host, app.operation, range.file, striping_.split(range), 1);
      app_stats.requests++;
    }
    if (last < p.requests.size()) {
      start_client(index, last); // a fresh actor goes on (kDirectRequestsPerClientActor says why)
      return;
    }
    app_stats.end = std::max(app_stats.end, sg4::Engine::get_clock());
  }

  /// Client side of one forwarded request: the request (with the data, for a write) goes
  /// to the client's forwarder, waits for the forwarder's dispatches to complete, then
  /// the reply (with the data, for a read) comes back.
  void forward(int index, const FileRange& range, Operation op)
  {
    Process& p      = processes_[static_cast<std::size_t>(index)];
    const int f     = layout_.forwarder_of_client[static_cast<std::size_t>(p.node)];
    sg4::Host* fw   = service_.forwarder_host(f);
    const auto data = range.size;
    transfer(p.host, fw, op == Operation::Write ? data : e_.control_bytes);
    service_.count_client_request(f, data);
    auto ticket = service_.enqueue(f, range, op);
    ticket->done->acquire();
    transfer(fw, p.host, op == Operation::Read ? data : e_.control_bytes);
  }

  const Experiment& e_;
  Layout layout_;
  Service service_;
  Striping striping_;
  Statistics stats_;
  std::vector<Process> processes_;
};

/// Seed 002's experiment as a scenario (scenarios/scenario.hpp).
class IoForwardingScenario final : public Scenario {
public:
  std::string title() const override { return "I/O forwarding"; }

  std::vector<std::string> output_files(const std::string& prefix) const override
  {
    Experiment all_outputs; // every file this scenario may write, whatever the experiment asks for
    all_outputs.dispatch_trace = true;
    return forwarding::output_files(prefix, all_outputs);
  }

  void load(const EngineConfig& config) override
  {
    experiment_ = load_experiment(config.scenario_file);
    check_run_cost(experiment_.file, "applications", client_request_cost(experiment_), config.allow_long_run);
  }

  void prepare(const EngineConfig& config) override
  {
    Layout layout = resolve_layout(experiment_, sg4::Engine::get_instance()->get_all_hosts(), config.platform_file);
    run_          = std::make_unique<Run>(experiment_, std::move(layout));
  }

  void start() override { run_->start_actors(); }

  std::string deadlock_detail() const override { return ": a client waits for a reply forever"; }

  void write_outputs(const std::string& prefix) override
  {
    forwarding::write_outputs(prefix, experiment_, run_->layout(), run_->stats());
  }

private:
  Experiment experiment_;
  std::unique_ptr<Run> run_;
};

} // namespace

std::unique_ptr<Scenario> make_io_forwarding_scenario()
{
  return std::make_unique<IoForwardingScenario>();
}

} // namespace datasched::forwarding
