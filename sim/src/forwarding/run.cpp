#include "forwarding/run.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Io.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "cli.hpp"
#include "execution/simulation.hpp"
#include "fatal.hpp"
#include "forwarding/hdd.hpp"
#include "forwarding/layout.hpp"
#include "forwarding/outputs.hpp"
#include "forwarding/requests.hpp"
#include "forwarding/schedulers.hpp"

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
  int pending_shares = 0; ///< server shares (TWINS) or dispatches still to complete
  sg4::SemaphorePtr done;
};

struct Forwarder {
  sg4::Host* host = nullptr;
  std::unique_ptr<RequestScheduler> scheduler;
  sg4::MutexPtr mutex;
  sg4::ConditionVariablePtr wake;
};

class Run {
public:
  Run(const Experiment& experiment, Layout layout) : e_(experiment), layout_(std::move(layout))
  {
    striping_.stripe_size = e_.servers.stripe_size;
    striping_.servers     = e_.servers.count;
    stats_.applications.resize(e_.applications.size());
    stats_.forwarders.resize(layout_.forwarders.size());
    stats_.servers.resize(layout_.servers.size());
    for (std::size_t f = 0; f < layout_.forwarders.size(); ++f) {
      Forwarder fw;
      fw.host      = layout_.forwarders[f];
      fw.scheduler = make_scheduler(e_.forwarding, static_cast<int>(f), e_.servers.count);
      fw.mutex     = sg4::Mutex::create();
      fw.wake      = sg4::ConditionVariable::create();
      forwarders_.push_back(std::move(fw));
    }
    create_processes();
  }

  void start_actors()
  {
    for (std::size_t f = 0; f < forwarders_.size(); ++f)
      for (int w = 0; w < e_.forwarding.max_in_flight; ++w)
        sg4::Actor::create("fwd" + std::to_string(f) + "-worker" + std::to_string(w), forwarders_[f].host, [this, f]() {
          run_actor_guarded([this, f] { worker(static_cast<int>(f)); });
        })->daemonize();
    for (std::size_t p = 0; p < processes_.size(); ++p)
      sg4::Actor::create("process" + std::to_string(p), processes_[p].host,
                         [this, p]() { run_actor_guarded([this, p] { client_process(static_cast<int>(p)); }); });
  }

  const Statistics& stats() const { return stats_; }
  const Layout& layout() const { return layout_; }

private:
  /// Process slots are filled node by node (node 0's processes first); application a
  /// takes the next `processes` slots. Start jitters are drawn in that order from one
  /// generator seeded with the experiment's seed.
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
        p.done         = sg4::Semaphore::create(0);
        processes_.push_back(std::move(p));
      }
      first_file += files_of(app);
    }
  }

  void client_process(int index)
  {
    Process& p      = processes_[static_cast<std::size_t>(index)];
    const auto& app = e_.applications[static_cast<std::size_t>(p.application)];
    auto& app_stats = stats_.applications[static_cast<std::size_t>(p.application)];
    sg4::this_actor::sleep_until(p.start);
    const double now = sg4::Engine::get_clock();
    if (app_stats.first_start < 0 || now < app_stats.first_start)
      app_stats.first_start = now;
    for (const auto& range : p.requests) {
      if (e_.forwarded)
        forward(index, range, app.operation);
      else
        serve(p.host, app.operation, striping_.split(range), 1);
      app_stats.requests++;
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
    Forwarder& fw   = forwarders_[static_cast<std::size_t>(f)];
    auto& fw_stats  = stats_.forwarders[static_cast<std::size_t>(f)];
    const auto data = range.size;
    sg4::Comm::sendto(p.host, fw.host, op == Operation::Write ? data : e_.control_bytes);
    fw_stats.client_requests++;
    fw_stats.client_bytes += data;
    {
      std::unique_lock lock(*fw.mutex);
      QueuedRequest q;
      q.id      = static_cast<std::uint64_t>(index);
      q.file    = range.file;
      q.op      = op;
      q.offset  = range.offset;
      q.size    = range.size;
      q.arrival = sg4::Engine::get_clock();
      if (fw.scheduler->queues_server_shares()) {
        auto shares      = striping_.split(range);
        p.pending_shares = static_cast<int>(shares.size());
        for (const auto& share : shares) {
          q.server = share.server;
          q.size   = share.bytes;
          fw.scheduler->push(q);
        }
      } else {
        p.pending_shares = 1;
        fw.scheduler->push(q);
      }
      fw.wake->notify_all();
    }
    p.done->acquire();
    sg4::Comm::sendto(fw.host, p.host, op == Operation::Read ? data : e_.control_bytes);
  }

  /// One of a forwarder's `max_in_flight` workers: takes the scheduler's next dispatch
  /// (waiting for a request, or under TWINS for the next window), sends it to the data
  /// servers and releases the client requests it carried.
  void worker(int f)
  {
    Forwarder& fw  = forwarders_[static_cast<std::size_t>(f)];
    auto& fw_stats = stats_.forwarders[static_cast<std::size_t>(f)];
    for (;;) {
      std::optional<Dispatch> next;
      {
        std::unique_lock lock(*fw.mutex);
        for (;;) {
          const double now = sg4::Engine::get_clock();
          next             = fw.scheduler->pop(now);
          if (next)
            break;
          // Nothing queued: only a push can help. Something queued for another server
          // (TWINS): the next window may serve it.
          const double change = fw.scheduler->next_change(now);
          if (fw.scheduler->queued() == 0 || std::isinf(change))
            fw.wake->wait(lock);
          else
            fw.wake->wait_until(lock, change);
        }
      }
      const double now = sg4::Engine::get_clock();
      fw_stats.dispatches++;
      fw_stats.dispatch_bytes += next->size;
      for (const auto& part : next->parts) {
        const double wait = now - part.arrival;
        fw_stats.waits++;
        fw_stats.wait_sum += wait;
        fw_stats.wait_max = std::max(fw_stats.wait_max, wait);
      }
      std::vector<Striping::ServerShare> shares;
      if (next->server >= 0)
        shares.push_back({next->server, next->size});
      else
        shares = striping_.split({next->file, next->offset, next->size});
      fw_stats.server_requests += shares.size();
      for (const auto& s : shares)
        fw_stats.server_bytes += s.bytes;
      serve(fw.host, next->op, shares, static_cast<int>(next->parts.size()));
      for (const auto& part : next->parts) {
        Process& p = processes_[static_cast<std::size_t>(part.id)];
        if (--p.pending_shares == 0)
          p.done->release();
      }
    }
  }

  /// Server requests from `source` (a forwarder, or a client in direct mode), one per
  /// server share, run concurrently stage by stage: request messages (with the data for
  /// a write), disk activities, replies (with the data for a read).
  void serve(sg4::Host* source, Operation op, const std::vector<Striping::ServerShare>& shares, int client_requests)
  {
    const double start = sg4::Engine::get_clock();
    std::vector<sg4::CommPtr> sends;
    for (const auto& s : shares)
      sends.push_back(sg4::Comm::sendto_async(source, layout_.servers[static_cast<std::size_t>(s.server)],
                                              op == Operation::Write ? s.bytes : e_.control_bytes));
    for (auto& c : sends)
      c->wait();
    std::vector<sg4::IoPtr> ios;
    std::vector<int> io_server;
    for (const auto& s : shares) {
      auto* disk = layout_.disks[static_cast<std::size_t>(s.server)];
      ios.push_back(op == Operation::Read ? disk->read_async(s.bytes) : disk->write_async(s.bytes));
      io_server.push_back(s.server);
      auto& server = stats_.servers[static_cast<std::size_t>(s.server)];
      server.requests++;
      server.bytes += s.bytes;
      disk_activity_changes(server, +1);
    }
    // In completion order, so the servers' occupancy figures see each end when it happens.
    while (!ios.empty()) {
      const auto done = static_cast<std::size_t>(sg4::Io::wait_any(ios));
      disk_activity_changes(stats_.servers[static_cast<std::size_t>(io_server[done])], -1);
      ios.erase(ios.begin() + static_cast<std::ptrdiff_t>(done));
      io_server.erase(io_server.begin() + static_cast<std::ptrdiff_t>(done));
    }
    std::vector<sg4::CommPtr> replies;
    for (const auto& s : shares)
      replies.push_back(sg4::Comm::sendto_async(layout_.servers[static_cast<std::size_t>(s.server)], source,
                                                op == Operation::Read ? s.bytes : e_.control_bytes));
    for (auto& c : replies)
      c->wait();
    if (e_.dispatch_trace)
      for (const auto& s : shares)
        stats_.dispatches.push_back(
            {source->get_name(), s.server, start, sg4::Engine::get_clock(), s.bytes, client_requests});
  }

  /// Keeps a server's occupancy figures: time with at least one disk activity, the
  /// integral of the number of activities over time, and its maximum.
  static void disk_activity_changes(ServerStats& server, int delta)
  {
    const double now = sg4::Engine::get_clock();
    if (server.active > 0) {
      server.busy_time += now - server.last_change;
      server.disk_time += (now - server.last_change) * server.active;
    }
    server.last_change = now;
    server.active += delta;
    server.max_active = std::max(server.max_active, server.active);
  }

  const Experiment& e_;
  Layout layout_;
  Striping striping_;
  Statistics stats_;
  std::vector<Process> processes_;
  std::vector<Forwarder> forwarders_;
};

void remove_files(const std::vector<std::string>& files)
{
  for (const auto& path : files) {
    std::remove(path.c_str());
    std::remove((path + ".tmp").c_str());
  }
}

} // namespace

int run_io_forwarding(const EngineConfig& config, const char* program_name)
{
  // Every file this mode may write goes first, whatever the experiment asks for: a
  // failed run must not leave a previous run's outputs looking like its own.
  Experiment all_outputs;
  all_outputs.dispatch_trace = true;
  const auto outputs         = output_files(config.export_prefix, all_outputs);
  remove_files(outputs);
  set_fatal_cleanup([outputs]() { remove_files(outputs); });
  Experiment experiment;
  try {
    experiment = load_experiment(config.io_forwarding_experiment);
  } catch (const InputError& e) {
    fatal(e.what());
  }

  std::unique_ptr<Run> run;
  try {
    init_simgrid(config, program_name);
    auto* engine  = sg4::Engine::get_instance();
    Layout layout = resolve_layout(experiment, engine->get_all_hosts(), config.platform_file);
    for (auto* disk : layout.disks)
      apply_hdd_curve(disk, experiment.servers.hdd_alpha);
    run = std::make_unique<Run>(experiment, std::move(layout));
  } catch (const InputError& e) {
    fatal(e.what());
  }
  install_abort_handler("SimGrid aborted the I/O forwarding simulation (its message is above)", outputs);
  sg4::Engine::on_deadlock_cb([]() { // recorded, not thrown: SimGrid's kernel runs it (fatal.hpp)
    record_engine_error(
        EngineError("the I/O forwarding simulation cannot progress (deadlock): a client waits for a reply forever"));
  });
  run->start_actors();
  sg4::Engine::get_instance()->run();
  throw_recorded_engine_error();
  try {
    write_outputs(config.export_prefix, experiment, run->layout(), run->stats());
  } catch (const std::exception& e) {
    fatal(e.what());
  }
  return 0;
}

} // namespace datasched::forwarding
