#include "export/nvm_csv.hpp"

#include <algorithm>
#include <cmath>

#include "common/csv.hpp"

namespace datasched {

std::string NvmCsv::header()
{
  return "time,nvm,host,used_bytes,capacity_bytes\n";
}

void NvmCsv::add_device(int nvm, const std::string& nvm_name, const std::string& host_name, double capacity)
{
  devices_[nvm] = Device{nvm_name, host_name, std::isfinite(capacity) ? fixed6(capacity) : std::string()};
}

void NvmCsv::record(double time, int nvm, double used)
{
  if (time != pending_time_)
    flush();
  pending_time_ = time;
  pending_[nvm] = used;
}

void NvmCsv::flush()
{
  for (const auto& [nvm, used] : pending_) {
    auto found = devices_.find(nvm);
    if (found == devices_.end())
      continue; // not a node NVM the simulation declared (unit tests of the registry alone)
    Device& d = found->second;
    // The registry adds and subtracts part sizes: an emptied NVM may keep a rounding
    // residue (even a tiny negative one) that must not print as a change or as -0.
    const std::string text = fixed6(used < 5e-7 ? 0.0 : used);
    if (text == d.last_used)
      continue;
    d.last_used = text;
    append_fixed6(rows_, pending_time_);
    rows_ += ',' + d.nvm_name + ',' + d.host_name + ',' + text + ',' + d.capacity + '\n';
  }
  pending_.clear();
}

void NvmCsv::write(const std::string& path)
{
  flush();
  write_file_atomically(path, header() + rows_);
}

} // namespace datasched
