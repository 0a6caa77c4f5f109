#include "qos/service_levels.hpp"

#include <algorithm>
#include <cmath>

#include "common/fatal.hpp"

namespace datasched::qos {

ArbitrationTable ArbitrationTable::paper_default()
{
  ArbitrationTable t;
  for (int sl = 0; sl < kServiceLevels; ++sl)
    t.sl2vl[static_cast<std::size_t>(sl)] = sl < 8 ? sl : kManagementLane;
  t.high_weight[0] = 40;
  double w         = 2;
  for (std::size_t vl = 1; vl <= 7; ++vl, w *= 2)
    t.low_weight[vl] = w;
  return t;
}

double ArbitrationTable::low_table_turn_share() const
{
  if (high_limit >= 255)
    return 0;
  return mtu / std::max(mtu, high_limit * 4096.0);
}

double ArbitrationTable::low_table_factor() const
{
  if (const double share = low_table_turn_share(); share > 0)
    return share;
  return across_tables_by_priority ? kLowTableFactor : 1.0;
}

void ArbitrationTable::check(const std::string& where) const
{
  if (!(granularity > 0) || !std::isfinite(granularity))
    throw InputError(where + ": granularity must be a number of bytes > 0");
  for (int vl = 0; vl < kVirtualLanes; ++vl) {
    const auto v = static_cast<std::size_t>(vl);
    if (!(high_weight[v] >= 0) || !(low_weight[v] >= 0) || !std::isfinite(high_weight[v]) ||
        !std::isfinite(low_weight[v]))
      throw InputError(where + ": VL" + std::to_string(vl) + ": weights must be finite and >= 0");
  }
  for (int sl = 0; sl < kServiceLevels; ++sl) {
    const int vl = sl2vl[static_cast<std::size_t>(sl)];
    if (vl < 0 || vl >= kVirtualLanes)
      throw InputError(where + ": sl2vl: SL" + std::to_string(sl) + " maps to VL" + std::to_string(vl) +
                       ", expected 0-15");
  }
}

bool ArbitrationTable::is_high(int sl, const std::string& where) const
{
  if (sl < 0 || sl >= kServiceLevels)
    throw InputError(where + ": SL must be 0-15, got " + std::to_string(sl));
  const int vl       = sl2vl[static_cast<std::size_t>(sl)];
  const auto v       = static_cast<std::size_t>(vl);
  const auto sl_name = "SL" + std::to_string(sl) + " (VL" + std::to_string(vl) + ")";
  if (vl == kManagementLane)
    throw InputError(where + ": " + sl_name + " is the management lane, which carries no data");
  if (high_weight[v] > 0)
    return true;
  if (low_weight[v] > 0)
    return false;
  throw InputError(where + ": " + sl_name +
                   " has weight 0 in both arbitration tables: its packets would never be sent");
}

double ArbitrationTable::weight(int sl, const std::string& where) const
{
  const bool high = is_high(sl, where);
  const auto v    = static_cast<std::size_t>(sl2vl[static_cast<std::size_t>(sl)]);
  return high ? high_weight[v] : low_weight[v];
}

} // namespace datasched::qos
