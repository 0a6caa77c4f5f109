#pragma once
// Contention-sensitive HDDs of the data servers (seed 002): when n requests are served
// at once, a hard disk seeks between them and delivers less than its sequential
// bandwidth B in total. We model the total as
//     B_eff(n) = B / (1 + alpha (n - 1))     (n >= 1; alpha >= 0, alpha = 0: no loss)
// shared equally by the n activities, through SimGrid's NONLINEAR disk sharing policy
// (SimGrid's solver calls the curve with the number of activities on the constraint),
// so SimGrid still does all the sharing. The curve applies to reads (B = read bandwidth),
// writes (B = write bandwidth) and to the disk's combined read+write constraint.
// alpha is a documented, swept parameter (sim/src/forwarding/README.md), never fitted.
namespace simgrid::s4u {
class Disk;
}

namespace datasched::forwarding {

/// B / (1 + alpha (n - 1)) for n >= 1; `capacity` for n <= 1.
double degraded_capacity(double capacity, int streams, double alpha);

/// Installs the curve on all three of the disk's sharing constraints.
void apply_hdd_curve(simgrid::s4u::Disk* disk, double alpha);

} // namespace datasched::forwarding
