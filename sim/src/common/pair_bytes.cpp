#include "common/pair_bytes.hpp"

#include <algorithm>

namespace datasched {

namespace {

inline bool before(const PairBytes::Pair& a, const PairBytes::Pair& b)
{
  return a.src != b.src ? a.src < b.src : a.dst < b.dst;
}

/// Sorts one source's flows [first, last) stably by destination. A sampled all-to-all gives
/// each node its partners in order up to one wrap-around: a rotation of a sorted run, put
/// in order by std::rotate (no two flows of the two runs compare equal, so it is stable).
void sort_row(std::vector<PairBytes::Pair>::iterator first, std::vector<PairBytes::Pair>::iterator last)
{
  const auto descent = std::is_sorted_until(first, last, before);
  if (descent == last)
    return;
  if (std::is_sorted(descent, last, before) && before(*(last - 1), *first))
    std::rotate(first, descent, last);
  else
    std::stable_sort(first, last, before);
}

/// Sorts `flows` stably by (src, dst): bucketed by source (linear), then each source's
/// flows (a few: its partners) sorted by destination. Planners add flows source by
/// source, often already in order, which costs one pass.
void sort_row_major(std::vector<PairBytes::Pair>& flows)
{
  if (std::is_sorted(flows.begin(), flows.end(), before))
    return;
  std::uint32_t sources = 0;
  for (const auto& f : flows)
    sources = std::max(sources, f.src + 1);
  std::vector<std::size_t> start(static_cast<std::size_t>(sources) + 1, 0);
  for (const auto& f : flows)
    start[f.src + 1]++;
  for (std::size_t s = 0; s < sources; ++s)
    start[s + 1] += start[s];
  std::vector<PairBytes::Pair> bucketed(flows.size());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (const auto& f : flows)
    bucketed[next[f.src]++] = f;
  for (std::size_t s = 0; s < sources; ++s)
    sort_row(bucketed.begin() + static_cast<std::ptrdiff_t>(start[s]),
             bucketed.begin() + static_cast<std::ptrdiff_t>(start[s + 1]));
  flows = std::move(bucketed);
}

} // namespace

PairBytes PairBytes::from_flows(std::vector<Pair> flows)
{
  flows.erase(std::remove_if(flows.begin(), flows.end(), [](const Pair& f) { return !(f.bytes > 0); }), flows.end());
  // Stable: the repeats of a pair stay in the order given, so they are summed in it.
  sort_row_major(flows);
  PairBytes out;
  out.pairs_.reserve(flows.size());
  for (const Pair& f : flows) {
    if (!out.pairs_.empty() && out.pairs_.back().src == f.src && out.pairs_.back().dst == f.dst)
      out.pairs_.back().bytes += f.bytes;
    else
      out.pairs_.push_back(f);
  }
  return out;
}

PairBytes PairBytes::from_dense(const std::vector<double>& dense, std::size_t n)
{
  PairBytes out;
  for (std::size_t k = 0; k < n * n && k < dense.size(); ++k)
    if (dense[k] > 0)
      out.pairs_.push_back(Pair{static_cast<std::uint32_t>(k / n), static_cast<std::uint32_t>(k % n), dense[k]});
  return out;
}

double PairBytes::at(std::size_t src, std::size_t dst) const
{
  const Pair key{static_cast<std::uint32_t>(src), static_cast<std::uint32_t>(dst), 0};
  auto it = std::lower_bound(pairs_.begin(), pairs_.end(), key, before);
  return it != pairs_.end() && it->src == key.src && it->dst == key.dst ? it->bytes : 0.0;
}

void PairBytes::scale(double factor)
{
  for (Pair& p : pairs_)
    p.bytes *= factor;
}

bool PairBytes::every_pair_of(std::size_t n) const
{
  if (n < 2)
    return false;
  // The pairs are distinct and within the n hosts: all n(n-1) off-diagonal ones are there
  // exactly when that many are.
  const auto off_diagonal = static_cast<std::size_t>(
      std::count_if(pairs_.begin(), pairs_.end(), [](const Pair& p) { return p.src != p.dst; }));
  return off_diagonal == n * (n - 1);
}

void PairBytes::release_to(std::size_t n, std::vector<std::size_t>& indices, std::vector<double>& amounts)
{
  indices.clear();
  amounts.clear();
  indices.reserve(pairs_.size());
  amounts.reserve(pairs_.size());
  for (const Pair& p : pairs_) {
    indices.push_back(static_cast<std::size_t>(p.src) * n + p.dst);
    amounts.push_back(p.bytes);
  }
  pairs_.clear();
  pairs_.shrink_to_fit();
}

std::vector<double> PairBytes::dense(std::size_t n) const
{
  std::vector<double> out(n * n, 0.0);
  for (const Pair& p : pairs_)
    out[static_cast<std::size_t>(p.src) * n + p.dst] = p.bytes;
  return out;
}

} // namespace datasched
