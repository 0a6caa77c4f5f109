#pragma once
// InfiniBand service levels (SL) and the VL arbitration table, as OpenSM configures them
// (seed 003 §V-A, Figure 4).
//
// In InfiniBand a packet's SL (0-15) selects a virtual lane (VL) through the SL2VL table;
// the VL arbiter serves the high-priority table first and the low-priority one after it,
// each weighted round-robin over its VLs (weights in 64-byte units). VL15 carries only
// subnet management. How the flow-level model uses the table (qos/flows.hpp):
//   * across the tables: strict priority, at a granularity: a flow on a low-table VL moves
//     in pieces, and a piece starts only when no high-table flow is active on any link of
//     its route (a piece already on the wire finishes);
//   * within one table: flows sharing a link get bandwidth in proportion to their VLs'
//     weights (activity priorities, honoured by the project's weighted fair-bottleneck,
//     simgrid/patches/0001), so two flows of weights w1:w2 get w1/(w1+w2) and
//     w2/(w1+w2) of a link they are both limited by.
//
// What a flow-level model cannot express (and what it changes): qos_ca_high_limit (after
// that many high packets the arbiter must serve the low table: real SL1 I/O keeps a small
// guaranteed share; here it waits for a gap); head-of-line blocking and per-VL credit
// exhaustion (a congested VL can stall others in real switches; here lanes never block
// each other); packet granularity (real pre-emption is per MTU, 2-4 KB; here per piece,
// `granularity` bytes, and each piece pays its route latency again as a new flow).
#include <array>
#include <string>

namespace datasched::qos {

constexpr int kServiceLevels  = 16;
constexpr int kVirtualLanes   = 16;
constexpr int kManagementLane = 15; ///< VL15: subnet management only, never data

struct ArbitrationTable {
  std::array<int, kServiceLevels> sl2vl{};         ///< VL of each SL
  std::array<double, kVirtualLanes> high_weight{}; ///< qos_ca_vlarb_high, per VL (0: not in the table)
  std::array<double, kVirtualLanes> low_weight{};  ///< qos_ca_vlarb_low, per VL
  double granularity = 65536;                      ///< bytes a low-table flow sends between checks of the high table
  /// How the high table comes first (qos/flows.hpp): "pieces" (a low-table flow moves in
  /// `granularity`-byte pieces, each waiting for no high flow on its route; not
  /// pre-emptive within a piece) or "priority" (whole flows; every low-table flow's
  /// solver priority is 1e-6 of a high-table one: pre-emptive, no granularity).
  bool across_tables_by_priority          = false;
  static constexpr double kLowTableFactor = 1e-6; ///< low-table priority factor under "priority"
  /// OpenSM's qos_ca_high_limit: the high table may send high_limit x 4 KiB (0: one
  /// packet) before the low table gets a turn of one packet; 255 (OpenSM's default and the
  /// paper's) is unbounded: the high table comes strictly first.
  int high_limit = 255;
  double mtu     = 2048; ///< bytes per packet (not in the paper: an assumption)

  /// Under a bounded high_limit, the low table's priority relative to the high table's
  /// when both have packets to send: one packet for every max(one packet, high_limit x
  /// 4096) bytes of the high table. 0 when unbounded (then the strict rule applies).
  double low_table_turn_share() const;
  /// Whether low-table flows move whole under a solver priority (across_tables "priority",
  /// or a bounded high_limit) rather than in gated pieces.
  bool low_table_by_solver() const { return across_tables_by_priority || low_table_turn_share() > 0; }
  /// What a low-table flow's in-table priority is multiplied by: the turn share under a
  /// bounded high_limit, kLowTableFactor under "priority", else 1 (pieces wait instead).
  double low_table_factor() const;

  /// seed 003 Figure 4: SL i -> VL i for i < 8, SL 8-15 -> VL15; high: VL0 40; low:
  /// VL1..7 weights 2, 4, ..., 128.
  static ArbitrationTable paper_default();

  /// Throws InputError("<where>: ...") on an SL2VL entry outside 0-15 or a negative weight.
  void check(const std::string& where) const;

  /// Whether `sl` is served by the high-priority table. Throws InputError naming `where`
  /// if the SL is out of range or cannot carry data: it maps to VL15, or to a VL with
  /// weight 0 in both tables (its packets would never be sent).
  bool is_high(int sl, const std::string& where) const;
  /// Its VL's weight in the table that serves it (same checks).
  double weight(int sl, const std::string& where) const;
};

} // namespace datasched::qos
