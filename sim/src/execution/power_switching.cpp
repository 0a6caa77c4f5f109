#include "execution/power_switching.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/fatal.hpp"
#include "execution/context.hpp"
#include "execution/messages.hpp"

namespace datasched {

void PendingSwitches::add(const IntervalSet& machines, int target_pstate)
{
  const std::vector<int> ids = machines.elements();
  by_target_[target_pstate].push_back(Request{machines, std::set<int>(ids.begin(), ids.end())});
}

bool PendingSwitches::done(int machine, int target_pstate, IntervalSet& all)
{
  auto it = by_target_.find(target_pstate);
  if (it == by_target_.end())
    return false;
  auto& requests = it->second;
  for (auto r = requests.begin(); r != requests.end(); ++r) {
    if (r->waiting.erase(machine) == 0)
      continue;
    if (!r->waiting.empty())
      return false;
    all = r->all;
    requests.erase(r);
    if (requests.empty())
      by_target_.erase(it);
    return true;
  }
  return false;
}

static void switch_power(Context* context, int machine_id, int target_pstate, bool on)
{
  Machine& machine = context->machines.at(machine_id);
  // The virtual pstate belongs to the sleep pstate: the one being left when switching
  // on, the target when switching off.
  const int sleep_pstate   = on ? static_cast<int>(machine.host->get_pstate()) : target_pstate;
  const SleepPState& cycle = machine.pstates->sleeps.at(sleep_pstate);
  machine.host->set_pstate(on ? cycle.switch_on : cycle.switch_off);
  simgrid::s4u::this_actor::execute(1);
  machine.host->set_pstate(target_pstate);
  context->set_power_state(machine, on ? PowerState::On : PowerState::Sleeping, simgrid::s4u::Engine::get_clock());
  auto* message       = new_message(MessageType::Switched);
  message->machine_id = machine_id;
  message->pstate     = target_pstate;
  send_to_server(message);
}

void power_switch_actor(Context* context, int machine_id, int target_pstate, bool on)
{
  run_actor_guarded([=] { switch_power(context, machine_id, target_pstate, on); });
}

} // namespace datasched
