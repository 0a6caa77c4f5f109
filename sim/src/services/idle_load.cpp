#include "services/idle_load.hpp"

#include <random>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

namespace datasched {

namespace sg4 = simgrid::s4u;

namespace {

void run_bursts(const DaemonCosts& costs, double phase, double* done)
{
  const double burst = idle_burst(costs);
  for (long long k = 0;; ++k) {
    sg4::this_actor::sleep_until(phase + static_cast<double>(k) * costs.idle_period);
    sg4::this_actor::execute(burst);
    if (done != nullptr)
      *done += burst;
  }
}

void run_steady(double rate)
{
  const sg4::ExecPtr load = sg4::this_actor::exec_init(rate * kIdleHorizon);
  load->set_bound(rate);
  load->start();
  load->wait();
}

} // namespace

std::vector<double> idle_phases(std::size_t daemons, const DaemonCosts& costs, std::uint64_t seed)
{
  std::vector<double> phases;
  if (costs.idle_form == IdleForm::Steady)
    return phases;
  std::mt19937_64 rng(seed);
  phases.reserve(daemons);
  for (std::size_t i = 0; i < daemons; ++i) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53; // uniform [0, 1)
    phases.push_back(costs.idle_aligned ? 0.0 : u * costs.idle_period);
  }
  return phases;
}

void start_idle_load(sg4::Host* host, const std::string& actor_name, const DaemonCosts& costs, double phase,
                     double* burst_flops_done)
{
  if (costs.idle_flops_per_second <= 0)
    return;
  sg4::ActorPtr actor;
  if (costs.idle_form == IdleForm::Steady)
    actor = sg4::Actor::create(actor_name, host, [rate = costs.idle_flops_per_second] { run_steady(rate); });
  else
    actor = sg4::Actor::create(actor_name, host,
                               [costs, phase, burst_flops_done] { run_bursts(costs, phase, burst_flops_done); });
  actor->daemonize();
}

} // namespace datasched
