#pragma once
// Contention-sensitive HDDs of the data servers (seed 002): when n requests are served
// at once, a hard disk seeks between them and delivers less than its sequential
// bandwidth B in total. We model the total as
//     B_eff(n) = B / (1 + alpha (n - 1) sigma)     (n >= 1; alpha >= 0, alpha = 0: no loss)
// shared equally by the n activities, through SimGrid's NONLINEAR disk sharing policy
// (SimGrid's solver calls the curve with the number of activities on the constraint),
// so SimGrid still does all the sharing. The curve applies to reads (B = read bandwidth),
// writes (B = write bandwidth) and to the disk's combined read+write constraint.
//
// sigma is 1 unless the seek-aware option is on (servers.hdd_seek_scale > 0): then it is
// the *seek spread* of the requests on the disk, min(1, mean gap / scale), where the gaps
// are between consecutive request positions sorted by (file, offset in the file's object on
// that server) and a change of file counts as a full `scale`: interleaved requests close
// together on the disk cost less than far ones. alpha and the scale are documented, swept
// parameters (sim/src/forwarding/README.md), never fitted.
#include <cstdint>
#include <set>
#include <utility>

namespace simgrid::s4u {
class Disk;
}

namespace datasched::forwarding {

/// B / (1 + alpha (n - 1) sigma) for n >= 1; `capacity` for n <= 1.
double degraded_capacity(double capacity, int streams, double alpha, double sigma = 1.0);

/// The positions of the requests one disk is serving (the seek-aware curve's state).
class SeekSpread {
public:
  explicit SeekSpread(double scale) : scale_(scale) {}
  void add(int file, std::uint64_t object_offset) { positions_.emplace(file, object_offset); }
  void remove(int file, std::uint64_t object_offset);
  /// min(1, mean gap / scale) over the sorted positions (a file change: a gap of scale);
  /// 0 with fewer than two requests.
  double sigma() const;
  std::size_t size() const { return positions_.size(); }

private:
  double scale_;
  std::multiset<std::pair<int, std::uint64_t>> positions_;
};

/// Installs the curve on all three of the disk's sharing constraints; with `spread`, sigma
/// is read from it whenever SimGrid's solver evaluates the curve (else sigma = 1).
void apply_hdd_curve(simgrid::s4u::Disk* disk, double alpha, const SeekSpread* spread = nullptr);

} // namespace datasched::forwarding
