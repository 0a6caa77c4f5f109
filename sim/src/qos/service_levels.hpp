#pragma once
// InfiniBand service levels (SL) and the VL arbitration table, as OpenSM configures them
// (seed 003 §V-A, Figure 4), mapped onto SimGrid activity priorities.
//
// In InfiniBand a packet's SL (0-15) selects a virtual lane (VL) through the SL2VL table;
// the VL arbiter serves a high-priority table first and a low-priority one after it, each
// weighted round-robin over its VLs (weights in 64-byte units). A flow-level model keeps
// what that means for bandwidth shares:
//   * a flow whose VL has a non-zero high weight is *strict* over every low-priority flow:
//     priority = strict_factor x w_high / max(w_high) (so in (0, strict_factor]);
//   * a flow whose VL is only in the low table gets priority w_low / max(w_low) (in (0, 1]);
//   * among the flows limited by one link, SimGrid's BMF solver gives each a bandwidth
//     proportional to its priority (sim/src/execution/traffic.hpp), and it is
//     work-conserving: what a flow cannot use (limited elsewhere, or idle) goes to the others.
// Two flows of weights w1:w2 in one table on one link thus get w1/(w1+w2) and w2/(w1+w2);
// a high flow against a low one gets all but ~1/strict_factor of the link.
//
// What a flow-level model cannot express (and what it changes): qos_ca_high_limit (the
// high table yields to the low one after that many packets, so low VLs get a small
// guaranteed share: real SL1 I/O still takes some bandwidth, our strict priority takes
// none); head-of-line blocking and per-VL buffer/credit exhaustion (a congested VL can
// stall the link's other VLs in real switches; here lanes never block each other);
// packet granularity (a 4 KB MTU packet of the low VL already on the wire delays a high
// packet by up to one MTU time; here pre-emption is instantaneous). All three make real
// isolation weaker than ours: results on SL1 are a lower bound of the interference.
#include <array>
#include <string>

namespace datasched::qos {

constexpr int kServiceLevels    = 16;
constexpr int kVirtualLanes     = 16;
constexpr int kManagementLane   = 15; ///< VL15: subnet management only, never data
constexpr double kStrictDefault = 1e6;

struct ArbitrationTable {
  std::array<int, kServiceLevels> sl2vl{};       ///< VL of each SL
  std::array<double, kVirtualLanes> high_weight{}; ///< qos_ca_vlarb_high, per VL (0: not in the table)
  std::array<double, kVirtualLanes> low_weight{};  ///< qos_ca_vlarb_low, per VL
  double strict_factor = kStrictDefault;           ///< how much stronger a high flow is than the strongest low one

  /// seed 003 Figure 4: SL i -> VL i for i < 8, SL 8-15 -> VL15; high: VL0 40; low:
  /// VL1..7 weights 2, 4, ..., 128.
  static ArbitrationTable paper_default();

  /// Throws InputError("<where>: ...") when an SL that data may use maps to VL15 or to a
  /// VL with no weight in either table (its packets would never be sent), or when weights
  /// are negative. `where` names the configuration (file and field).
  void check(const std::string& where) const;

  /// The activity priority of a flow on `sl` (0-15). Throws InputError naming `where` if
  /// the SL is out of range or cannot carry data (see check()).
  double priority(int sl, const std::string& where) const;
  bool is_high(int sl) const { return high_weight[static_cast<std::size_t>(sl2vl[static_cast<std::size_t>(sl)])] > 0; }
};

} // namespace datasched::qos
