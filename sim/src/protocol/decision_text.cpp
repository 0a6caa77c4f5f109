#include "protocol/decision_text.hpp"

#include <sstream>
#include <type_traits>

#include "common/fatal.hpp"

namespace datasched {

namespace {

std::string describe(const DecisionPayload& p)
{
  std::ostringstream out;
  out.precision(17);
  std::visit(
      [&out](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, ExecuteJob>) {
          out << "EXECUTE " << d.job_id << " [" << d.allocation.to_string(" ") << "] map";
          for (int i : d.mapping)
            out << ' ' << i;
          for (const auto& [k, v] : d.storage_mapping)
            out << ' ' << k << '=' << v;
          out << " io=" << (d.additional_io_job ? d.additional_io_job->dump() : "-");
          if (d.storage) {
            out << " storage=" << (d.storage->allocation ? storage_allocation_to_string(*d.storage->allocation) : "-")
                << '/' << (d.storage->access ? access_type_to_string(*d.storage->access) : "-");
            for (int device : d.storage->devices)
              out << ' ' << device;
          }
        } else if constexpr (std::is_same_v<T, RejectJob>) {
          out << "REJECT " << d.job_id;
        } else if constexpr (std::is_same_v<T, KillJobs>) {
          out << "KILL";
          for (const auto& id : d.job_ids)
            out << ' ' << id;
        } else if constexpr (std::is_same_v<T, CallMeLater>) {
          out << "CALL " << d.when;
        } else if constexpr (std::is_same_v<T, NotifyDecision>) {
          out << "NOTIFY " << d.type;
        } else if constexpr (std::is_same_v<T, SetJobMetadata>) {
          out << "META " << d.job_id << ' ' << d.metadata;
        } else if constexpr (std::is_same_v<T, ChangeJobState>) {
          out << "STATE " << d.job_id << ' ' << d.job_state;
        } else if constexpr (std::is_same_v<T, RegisterJob>) {
          out << "REGJOB " << d.job_id << ' ' << d.job.dump();
        } else if constexpr (std::is_same_v<T, RegisterProfile>) {
          out << "REGPROF " << d.workload_name << ' ' << d.profile_name << ' ' << d.profile.dump();
        } else if constexpr (std::is_same_v<T, SetResourceState>) {
          out << "SETSTATE " << d.resources.to_string(" ") << ' ' << d.pstate;
        } else if constexpr (std::is_same_v<T, DataStage>) {
          out << "STAGE " << d.stage_id << ' ' << d.item << ' ' << d.to_central;
          for (int n : d.to_nodes)
            out << ' ' << n;
        } else {
          out << "QUERY " << d.requests.dump();
        }
      },
      p);
  return out.str();
}

} // namespace

std::string describe_decisions(const DecisionMessage& message)
{
  std::ostringstream out;
  out.precision(17);
  out << "now " << message.now;
  for (const auto& d : message.decisions)
    out << " | " << d.timestamp << ' ' << d.type << ": " << describe(d.payload);
  return out.str();
}

std::string decision_outcome(DecisionMessage (*parse)(const std::string&), const std::string& text)
{
  try {
    return describe_decisions(parse(text));
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

} // namespace datasched
