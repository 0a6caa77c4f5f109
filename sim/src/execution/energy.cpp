#include "execution/energy.hpp"

#include <fstream>
#include <sstream>

#include <simgrid/host.h>
#include <simgrid/plugins/energy.h>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/fatal.hpp"
#include "model/machines.hpp"
#include "model/platform_check.hpp"
#include "model/power_states.hpp"

namespace datasched {

namespace {

std::string host_location(const std::string& platform_file, const std::string& host)
{
  std::ifstream in(platform_file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const size_t line = xml_element_line(text.str(), "host", host);
  return "platform '" + platform_file + "'" + (line ? ", line " + std::to_string(line) : std::string()) + ": host '" +
         host + "'";
}

} // namespace

void enable_energy_plugin(const std::string& platform_file)
{
  // Runs before the plugin's own creation callback (SimGrid calls them in the order they
  // were connected), which would abort on a malformed wattage_per_state and throw
  // through its XML parser on a malformed wattage_off. fatal() throws through the parser
  // too (SimGrid's parser is C++ and throws its own ParseError that way); init_simgrid
  // lets the EngineError through and the run ends before SimGrid's state is used again.
  simgrid::s4u::Host::on_creation_cb([platform_file](simgrid::s4u::Host& host) {
    const int nb_pstates = static_cast<int>(host.get_pstate_count());
    if (const char* value = host.get_property("wattage_per_state")) {
      if (std::string why = wattage_per_state_problem(value, nb_pstates); !why.empty())
        fatal(host_location(platform_file, host.get_name()) + ": property 'wattage_per_state' " + why);
    }
    if (const char* value = host.get_property("wattage_off")) {
      if (std::string why = wattage_off_problem(value); !why.empty())
        fatal(host_location(platform_file, host.get_name()) + ": property 'wattage_off': " + why);
    }
  });
  sg_host_energy_plugin_init();
}

void check_energy_properties(const Machines& machines)
{
  for (const Machine& m : machines.all())
    if (!m.properties.count("wattage_per_state"))
      throw InputError("host '" + m.name + "' (resource " + std::to_string(m.id) +
                       ") has no 'wattage_per_state' property: with -E every compute and storage host needs one "
                       "(one 'Idle:Epsilon:AllCores' group of watts per pstate), or SimGrid would count 0 W for it");
}

long double EnergyTracker::consumed_on(const Machines& machines, const IntervalSet& ids) const
{
  long double total = 0;
  for (int id : ids.elements())
    total += static_cast<long double>(sg_host_get_consumed_energy(machines.at(id).host));
  return total;
}

long double EnergyTracker::consumed_total(const Machines& machines) const
{
  long double total = 0;
  for (const Machine& m : machines.all())
    total += static_cast<long double>(sg_host_get_consumed_energy(m.host));
  return total;
}

long double EnergyTracker::wattmin_total(const Machines& machines) const
{
  long double total = 0;
  for (const Machine& m : machines.all())
    total += static_cast<long double>(sg_host_get_wattmin_at(m.host, sg_host_get_pstate(m.host)));
  return total;
}

long double EnergyTracker::trace(const Machines& machines, double date, char event_type)
{
  const long double energy  = consumed_total(machines);
  const long double wattmin = wattmin_total(machines);
  consumed_energy.add(date, energy, event_type, wattmin);
  return energy;
}

void EnergyTracker::note_first_submission(const Machines& machines)
{
  if (enabled_ && first_submission_ < 0)
    first_submission_ = consumed_total(machines);
}

} // namespace datasched
