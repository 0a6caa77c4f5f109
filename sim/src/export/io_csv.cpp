#include "export/io_csv.hpp"

#include "common/csv.hpp"
#include "model/workload.hpp"

namespace datasched {

std::string IoCsv::header()
{
  std::string h                  = "job_id,workload_name,final_state,allocation,access,devices";
  constexpr int kDescriptorTiers = static_cast<int>(Tier::StageOut) + 1; // writeback: with the item columns
  for (int t = 1; t < kDescriptorTiers; ++t) { // from 1: the compute tier moves no bytes (compute_phase_seconds)
    const std::string name = tier_to_string(static_cast<Tier>(t));
    h += "," + name + "_bytes," + name + "_seconds";
  }
  for (auto kind : {PhaseKind::Compute, PhaseKind::Communicate, PhaseKind::Read, PhaseKind::Write})
    h += "," + phase_kind_to_string(kind) + "_phase_seconds";
  h += ",stage_seconds,ipc_class_seconds,storage_class_seconds";
  h += ",item_read_local_nvm_bytes,item_read_remote_nvm_bytes,item_read_central_bytes,item_written_nvm_bytes,"
       "item_written_central_bytes,writeback_bytes,writeback_seconds\n";
  return h;
}

void IoCsv::add(const Job& job)
{
  if (!job.io)
    return;
  const IoRecord& r = *job.io;
  std::string& out  = rows_;
  out += job.number;
  out += ',';
  out += job.workload->name;
  out += ',';
  out += job_state_to_string(job.state);
  out += ',';
  out += storage_allocation_to_string(r.allocation);
  out += ',';
  out += access_type_to_string(r.access);
  out += ',';
  for (size_t i = 0; i < r.devices.size(); ++i) {
    if (i)
      out += ' ';
    out += std::to_string(r.devices[i]);
  }
  for (int t = 1; t <= static_cast<int>(Tier::StageOut); ++t) {
    out += ',';
    append_fixed6(out, r.bytes[t]);
    out += ',';
    append_fixed6(out, r.seconds[t]);
  }
  for (double s : r.phase_seconds) {
    out += ',';
    append_fixed6(out, s);
  }
  out += ',';
  append_fixed6(out, r.stage_seconds);
  out += ',';
  append_fixed6(out, r.class_seconds[static_cast<int>(TrafficClass::Ipc)]);
  out += ',';
  append_fixed6(out, r.class_seconds[static_cast<int>(TrafficClass::Storage)]);
  for (double b : r.item_read_bytes) {
    out += ',';
    append_fixed6(out, b);
  }
  for (double b : r.item_written_bytes) {
    out += ',';
    append_fixed6(out, b);
  }
  out += ',';
  append_fixed6(out, r.bytes[static_cast<int>(Tier::Writeback)]);
  out += ',';
  append_fixed6(out, r.seconds[static_cast<int>(Tier::Writeback)]);
  out += '\n';
  nb_rows_++;
}

void IoCsv::write(const std::string& path) const
{
  write_file_atomically(path, header() + rows_);
}

} // namespace datasched
