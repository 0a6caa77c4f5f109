#include "model/power_states.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "common/fatal.hpp"
#include "common/number_text.hpp"

namespace datasched {

namespace {

std::vector<std::string> split(const std::string& text, char separator)
{
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos)
      return parts;
    start = end + 1;
  }
}

std::string trimmed(const std::string& text)
{
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1])))
    --e;
  return text.substr(b, e - b);
}

/// A finite, non-negative number of watts written alone (surrounding blanks allowed).
bool parse_watts(const std::string& text, double& value)
{
  const std::string t = trimmed(text);
  if (t.empty())
    return false;
  const auto v = finite_number(t);
  if (!v || *v < 0)
    return false;
  value = *v;
  return true;
}

/// A pstate index written alone (digits only, surrounding blanks allowed).
bool parse_pstate(const std::string& text, int& value)
{
  const std::string t = trimmed(text);
  if (t.empty() || t.size() > 9)
    return false;
  for (char c : t)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  value = std::stoi(t);
  return true;
}

} // namespace

PowerStates PowerStates::parse(const std::string& sleep_pstates, int nb_pstates)
{
  PowerStates p;
  p.kinds.assign(nb_pstates, PStateKind::Computation);
  if (trimmed(sleep_pstates).empty())
    return p;
  std::vector<bool> claimed(nb_pstates, false);
  auto claim = [&](int ps, PStateKind kind, const std::string& triplet, const char* role) {
    if (ps >= nb_pstates)
      throw InputError("property 'sleep_pstates': in '" + triplet + "', the " + role + " pstate " + std::to_string(ps) +
                       " does not exist (the host has " + std::to_string(nb_pstates) + " pstates: 0-" +
                       std::to_string(nb_pstates - 1) + ")");
    if (claimed[ps] && !(kind == PStateKind::Transition && p.kinds[ps] == PStateKind::Transition))
      throw InputError("property 'sleep_pstates': in '" + triplet + "', pstate " + std::to_string(ps) +
                       " is used twice (a pstate is either a computation, a sleep or a transition one)");
    claimed[ps] = true;
    p.kinds[ps] = kind;
  };
  for (const std::string& triplet : split(sleep_pstates, ',')) {
    if (trimmed(triplet).empty())
      continue; // "a,,b": Batsim skips empty parts
    const std::vector<std::string> parts = split(triplet, ':');
    SleepPState s;
    if (parts.size() != 3 || !parse_pstate(parts[0], s.sleep) || !parse_pstate(parts[1], s.switch_off) ||
        !parse_pstate(parts[2], s.switch_on))
      throw InputError("property 'sleep_pstates': '" + trimmed(triplet) +
                       "' is not 'sleep:off:on' (three pstate numbers: the sleep pstate, then the virtual pstates "
                       "used to switch off into it and on out of it)");
    claim(s.sleep, PStateKind::Sleep, trimmed(triplet), "sleep");
    claim(s.switch_off, PStateKind::Transition, trimmed(triplet), "switch-off");
    claim(s.switch_on, PStateKind::Transition, trimmed(triplet), "switch-on");
    p.sleeps[s.sleep] = s;
  }
  bool computes = false;
  for (PStateKind k : p.kinds)
    computes = computes || k == PStateKind::Computation;
  if (!computes)
    throw InputError("property 'sleep_pstates' leaves no computation pstate");
  return p;
}

std::string wattage_per_state_problem(const std::string& value, int nb_pstates)
{
  const std::vector<std::string> groups = split(value, ',');
  if (static_cast<int>(groups.size()) != nb_pstates)
    return "has " + std::to_string(groups.size()) + " comma-separated group(s) but the host has " +
           std::to_string(nb_pstates) + " pstate(s) (one 'Idle:Epsilon:AllCores' or 'Idle:AllCores' group each)";
  for (size_t i = 0; i < groups.size(); ++i) {
    const std::vector<std::string> numbers = split(groups[i], ':');
    if (numbers.size() != 2 && numbers.size() != 3)
      return "group " + std::to_string(i) + " '" + trimmed(groups[i]) +
             "' is not 'Idle:Epsilon:AllCores' or 'Idle:AllCores'";
    for (const auto& n : numbers) {
      double watts = 0;
      if (!parse_watts(n, watts))
        return "group " + std::to_string(i) + " '" + trimmed(groups[i]) + "': '" + trimmed(n) +
               "' is not a number of watts (finite, >= 0)";
    }
  }
  return {};
}

std::string wattage_off_problem(const std::string& value)
{
  double watts = 0;
  if (!parse_watts(value, watts))
    return "'" + value + "' is not a number of watts (finite, >= 0)";
  return {};
}

} // namespace datasched
