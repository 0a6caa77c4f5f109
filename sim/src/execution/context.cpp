#include "execution/context.hpp"

#include <cstdio>

namespace datasched {

void Context::maybe_print_progress(double now)
{
  if (config.progress_interval <= 0)
    return;
  auto wall = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(wall - last_progress).count() < config.progress_interval)
    return;
  last_progress = wall;
  std::fprintf(stderr, "[datasched-sim progress] completed=%d total=%zu simulated_time=%.3f\n", nb_completed_jobs,
               workloads.nb_jobs(), now);
  std::fflush(stderr);
}

} // namespace datasched
