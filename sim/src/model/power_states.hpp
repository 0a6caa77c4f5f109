#pragma once
// A host's energy description as Batsim 4.2.1 reads it (-E): the SimGrid pstates split
// into computation, sleep and virtual transition pstates, and the wattage properties
// that SimGrid's host-energy plugin will read.
//
// Platform properties (on each <host>):
//  - wattage_per_state: one "Idle:Epsilon:AllCores" (or "Idle:AllCores") group of watts
//    per SimGrid pstate, comma-separated (SimGrid's plugin computes the power from it);
//  - wattage_off: watts of a host turned off (SimGrid's; Batsim never turns hosts off);
//  - sleep_pstates: comma-separated "sleep:off:on" triplets (Batsim's): `sleep` is a
//    sleep pstate, `off` and `on` the virtual pstates in which the host computes one flop
//    to switch into it and out of it (so their speed sets the switch's duration, their
//    wattage its power). Every other pstate is a computation pstate.
#include <map>
#include <string>
#include <vector>

namespace datasched {

enum class PStateKind { Computation, Sleep, Transition };

struct SleepPState {
  int sleep      = 0; ///< the sleep pstate itself
  int switch_off = 0; ///< virtual pstate used while switching into `sleep`
  int switch_on  = 0; ///< virtual pstate used while switching out of `sleep`
};

struct PowerStates {
  std::vector<PStateKind> kinds;     ///< one per SimGrid pstate
  std::map<int, SleepPState> sleeps; ///< by sleep pstate

  bool exists(int pstate) const { return pstate >= 0 && pstate < static_cast<int>(kinds.size()); }
  bool is(int pstate, PStateKind kind) const { return exists(pstate) && kinds[pstate] == kind; }

  /// Parses the `sleep_pstates` property (empty: every pstate computes) of a host with
  /// `nb_pstates` pstates. Throws InputError (without the host's name: the caller adds it).
  static PowerStates parse(const std::string& sleep_pstates, int nb_pstates);
};

/// Checks a `wattage_per_state` value as SimGrid's plugin reads it (one group per pstate,
/// 2 or 3 numbers each); returns what is wrong, or an empty string.
std::string wattage_per_state_problem(const std::string& value, int nb_pstates);
/// Checks a `wattage_off` value (one number); returns what is wrong, or an empty string.
std::string wattage_off_problem(const std::string& value);

} // namespace datasched
