#pragma once
// `<prefix>_data.csv`: one row per movement of a named data item (model/data_registry),
// in the order they end: create / update (a write), read_local_nvm / read_remote_nvm /
// read_central (a read, by where the bytes were found), evict and write_back (making
// room on a full NVM), stage_in / stage_out / stage_move (data movers). Columns
// documented in workloads/README.md ("Named data items").
#include <string>
#include <vector>

namespace datasched {

class DataCsv {
public:
  /// `who`: the job id, or the data mover's stage id. `locations`: resource ids where
  /// the bytes went (writes, stages) or came from (reads, write-backs).
  void add(double start, double end, const std::string& item, const std::string& event, const std::string& who,
           double bytes, const std::vector<int>& locations);
  bool empty() const { return nb_rows_ == 0; }
  void write(const std::string& path) const;
  static std::string header();

private:
  std::string rows_;
  size_t nb_rows_ = 0;
};

} // namespace datasched
