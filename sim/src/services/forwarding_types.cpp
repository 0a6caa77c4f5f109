#include "services/forwarding_types.hpp"

namespace datasched::forwarding {

std::string to_string(Operation op)
{
  return op == Operation::Read ? "read" : "write";
}

std::string to_string(AccessPattern pattern)
{
  switch (pattern) {
    case AccessPattern::FilePerProcess:
      return "file_per_process";
    case AccessPattern::SharedStrided:
      return "shared_strided";
    case AccessPattern::SharedContiguous:
      return "shared_contiguous";
  }
  return "?";
}

std::string to_string(SchedulerKind kind)
{
  switch (kind) {
    case SchedulerKind::Fifo:
      return "fifo";
    case SchedulerKind::Hbrr:
      return "hbrr";
    case SchedulerKind::Twins:
      return "twins";
  }
  return "?";
}

} // namespace datasched::forwarding
