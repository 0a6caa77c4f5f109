#pragma once
// The bytes a parallel task moves between its hosts, kept as the list of pairs that
// communicate instead of a dense n x n matrix. A task whose hosts each talk to a few
// others (hosts writing to a few storage nodes, a sampled all-to-all: 32 partners among
// 600 hosts) then costs its pairs, not n^2, to plan, check, calibrate and start: SimGrid
// takes the same form (simgrid/patches/0007, Exec::set_sparse_bytes_amounts).
//
// Pairs are kept in row-major order (by source index, then destination), the order in
// which a scan of the dense matrix meets its positive entries: every reader sees the
// flows in the order it saw them in the matrix, and SimGrid builds the very same task.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace datasched {

class PairBytes {
public:
  struct Pair {
    std::uint32_t src; ///< index in the task's host list
    std::uint32_t dst; ///< index in the task's host list
    double bytes;      ///< > 0
  };

  PairBytes() = default;

  /// From flows in any order and possibly repeated: a pair's amounts are summed in the
  /// order given, as `+=` into a zeroed dense matrix would sum them. Flows that do not
  /// move a positive amount (0, negative, NaN) are dropped, as a matrix scan skips them.
  static PairBytes from_flows(std::vector<Pair> flows);
  /// The positive entries of a dense row-major n x n matrix (a Batsim profile's).
  static PairBytes from_dense(const std::vector<double>& dense, std::size_t n);

  bool empty() const { return pairs_.empty(); }
  std::size_t size() const { return pairs_.size(); }
  std::vector<Pair>::const_iterator begin() const { return pairs_.begin(); }
  std::vector<Pair>::const_iterator end() const { return pairs_.end(); }

  /// The bytes from host index src to dst: 0 when that pair does not communicate.
  double at(std::size_t src, std::size_t dst) const;
  /// Multiplies every amount by `factor` (> 0, so every pair still communicates).
  void scale(double factor);
  /// Whether every ordered pair of distinct hosts of an n-host task communicates: then
  /// whatever holds for one such task holds for any other on the same host list, which
  /// is what keying a cache by the host list needs.
  bool every_pair_of(std::size_t n) const;

  /// SimGrid's sparse form for an n-host task (every index < n): the row-major index
  /// src * n + dst of each pair, increasing, and its amount. Leaves this empty (the
  /// amounts are handed over, the caller no longer needs them).
  void release_to(std::size_t n, std::vector<std::size_t>& indices, std::vector<double>& amounts);
  /// The dense row-major n x n matrix (every index < n).
  std::vector<double> dense(std::size_t n) const;

private:
  std::vector<Pair> pairs_;
};

} // namespace datasched
