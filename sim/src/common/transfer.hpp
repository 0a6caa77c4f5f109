#pragma once
// Point-to-point transfers for the engine's own actors (forwarders, data servers, IOR
// clients, HPL's ring), simulated exactly as SimGrid's Comm::sendto but without its cost.
//
// Why not Comm::sendto: SimGrid 3.32 detaches every sendto comm (s4u_Comm.cpp, sendto_init)
// by appending it to maestro's activity std::list, and CommImpl::finish() takes it out with
// std::list::remove — a scan of every detached comm in flight, at each completion. In the
// paper-sized seed 002 test (128 processes, 131,072 requests) that scan was 84 % of the
// engine's CPU (perf, 2026-11-23).
//
// Why this is the same transfer: under ptask_L07 (the model the engine always runs,
// execution/simulation.cpp) NetworkL07Model::communicate(src, dst, size, rate) builds the
// parallel task {src, dst}, flops {0, 0}, bytes {0, size, 0, 0} with no rate bound; a
// two-host Exec with those amounts is that very action (same route, latency, sharing). The
// closed-form forwarding tests (8λ + 2S/L + ...) hold unchanged. Under the compound host
// model (the interference mode's "cas01_cm02", interference/simgrid_model.hpp),
// HostCLM03Model::execute_parallel turns this two-host Exec into
// NetworkCm02Model::communicate(src, dst, size, rate), the action Comm::sendto makes there;
// that model has no empty transfer (bytes must be > 0).
//
// One difference remains and is harmless here: an Exec belongs to the actor that starts
// it, so killing that actor cancels it, whereas a detached comm would run on. Callers wait
// for their transfers before going on, so only an actor killed at the end of a run (a
// daemon) leaves one unfinished — and nothing reads it then.
#include <cstdint>

#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

namespace datasched {

/// Told of the transfers started with it, so that whoever weighs traffic (the job
/// simulation's traffic arbiter, execution/traffic.hpp) sees the forwarding layer's
/// transfers too, without this layer depending on it.
class TransferObserver {
public:
  virtual ~TransferObserver() = default;
  /// Right after the transfer started.
  virtual void started(const simgrid::s4u::ExecPtr& exec, simgrid::s4u::Host* from, simgrid::s4u::Host* to,
                       double bytes) = 0;
  /// Once it completed (idempotent).
  virtual void ended(const simgrid::s4u::Exec* exec) = 0;
};

/// Starts moving `bytes` from `from` to `to`; wait() on the result (then tell `observer`,
/// if any, that it ended).
simgrid::s4u::ExecPtr transfer_async(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes,
                                     TransferObserver* observer = nullptr);

/// Moves `bytes` from `from` to `to` and returns when they have arrived.
void transfer(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, TransferObserver* observer = nullptr);

} // namespace datasched
