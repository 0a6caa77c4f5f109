#pragma once
// `<prefix>_io.csv`: one row per job that ran a datasched_phases profile, in
// completion order: bytes and seconds per storage tier, wall time per phase kind and
// per traffic class, and the devices its data lived on. Columns documented in
// workloads/README.md ("Engine outputs").
#include <string>

#include "model/job.hpp"

namespace datasched {

class IoCsv {
public:
  /// Records a finished job (no-op for jobs without an I/O record).
  void add(const Job& job);
  bool empty() const { return nb_rows_ == 0; }
  /// Writes the file atomically.
  void write(const std::string& path) const;
  static std::string header();

private:
  std::string rows_;
  size_t nb_rows_ = 0;
};

} // namespace datasched
