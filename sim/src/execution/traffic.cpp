#include "execution/traffic.hpp"

#include <cmath>
#include <sstream>

#include "common/fatal.hpp"
#include "common/number_text.hpp"

namespace datasched {

namespace {

/// FP's IPC priority over storage's: strict in practice (on one link, 1 GB of IPC
/// against 2 GB of storage: 1.000001 s instead of 1 s) while the solver's sums of
/// weights stay far from losing the storage class's share to rounding.
constexpr double kStrictFactor = 1e6;

double positive_number(const std::string& text, const std::string& where)
{
  if (const auto v = finite_number(text); v && *v > 0)
    return *v;
  throw InputError(where + ": '" + text + "' is not a positive number");
}

} // namespace

TrafficPolicy TrafficPolicy::parse(const std::string& text)
{
  const std::string where = "option --traffic-policy '" + text + "'";
  TrafficPolicy p;
  p.text = text;
  if (text == "none")
    return p;
  if (text == "np") {
    p.kind = Kind::Np;
    return p;
  }
  if (text == "fp") {
    p.kind                                            = Kind::Fp;
    p.weight[static_cast<int>(TrafficClass::Ipc)]     = kStrictFactor;
    p.weight[static_cast<int>(TrafficClass::Storage)] = 1;
    return p;
  }
  if (text.rfind("ba:", 0) == 0) {
    const double x = positive_number(text.substr(3), where);
    if (x >= 100)
      throw InputError(where + ": the IPC share must be between 0 and 100 (exclusive); use fp for strict priority");
    p.kind                                            = Kind::Ba;
    p.weight[static_cast<int>(TrafficClass::Ipc)]     = x;
    p.weight[static_cast<int>(TrafficClass::Storage)] = 100 - x;
    return p;
  }
  if (text.rfind("weights:", 0) == 0) {
    p.kind                       = Kind::Weights;
    bool seen[kNbTrafficClasses] = {false, false, false};
    std::stringstream items(text.substr(8));
    std::string item;
    while (std::getline(items, item, ',')) {
      const auto eq = item.find('=');
      if (eq == std::string::npos)
        throw InputError(where + ": expected class=weight, got '" + item + "'");
      const std::string name = item.substr(0, eq);
      TrafficClass c;
      if (name == "ipc")
        c = TrafficClass::Ipc;
      else if (name == "storage")
        c = TrafficClass::Storage;
      else
        throw InputError(where + ": unknown traffic class '" + name + "' (expected ipc or storage)");
      p.weight[static_cast<int>(c)] = positive_number(item.substr(eq + 1), where);
      seen[static_cast<int>(c)]     = true;
    }
    if (!seen[static_cast<int>(TrafficClass::Ipc)] || !seen[static_cast<int>(TrafficClass::Storage)])
      throw InputError(where + ": give a weight for both classes, e.g. weights:ipc=3,storage=1");
    return p;
  }
  throw InputError(where + ": unknown traffic policy (expected none, np, ba:X, fp or weights:ipc=A,storage=B)");
}

void TrafficArbiter::configure(const TrafficPolicy& policy)
{
  policy_ = policy;
  if (policy.active())
    arbiter_.configure({policy.weight.begin(), policy.weight.end()}, policy.counts_class_members());
  else
    arbiter_.configure({}, false);
}

} // namespace datasched
