#pragma once
// `<prefix>_nvm.csv`: the occupancy of every node NVM endpoint over time, as the data
// registry (model/data_registry.hpp) accounts it: item parts plus the room reserved for
// writes and stages in progress. One row per change: the registry reports each change
// of an NVM's usage; the changes of one date are merged into that date's final value
// (an eviction and the write that needed the room, at the same date, are one step of
// the curve), and a date whose final value equals the NVM's previous row writes none.
// Every NVM starts empty at time 0 (no row). Columns documented in workloads/README.md
// ("Named data items").
#include <map>
#include <string>

namespace datasched {

class NvmCsv {
public:
  /// Names an NVM endpoint: its resource name, the compute node that owns it and its
  /// capacity in bytes (infinity: unlimited, written as an empty field).
  void add_device(int nvm, const std::string& nvm_name, const std::string& host_name, double capacity);
  /// NVM `nvm` holds `used` bytes from `time` on (dates never decrease).
  void record(double time, int nvm, double used);
  /// Writes the file atomically (the changes of the last date included).
  void write(const std::string& path);
  static std::string header();

private:
  struct Device {
    std::string nvm_name;
    std::string host_name;
    std::string capacity; ///< fixed6, or empty when unlimited
    std::string last_used = "0.000000";
  };
  void flush();

  std::map<int, Device> devices_;
  std::map<int, double> pending_; ///< changes at pending_time_, by NVM id (rows in id order)
  double pending_time_ = 0;
  std::string rows_;
};

} // namespace datasched
