#include "export/data_csv.hpp"

#include <set>

#include "common/csv.hpp"

namespace datasched {

std::string DataCsv::header()
{
  return "start_time,end_time,item,event,job_id,bytes,locations\n";
}

void DataCsv::add(double start, double end, const std::string& item, const std::string& event, const std::string& who,
                  double bytes, const std::vector<int>& locations)
{
  append_fixed6(rows_, start);
  rows_ += ',';
  append_fixed6(rows_, end);
  rows_ += ',' + item + ',' + event + ',' + who + ',';
  append_fixed6(rows_, bytes);
  rows_ += ',';
  const std::set<int> sorted(locations.begin(), locations.end());
  bool first = true;
  for (int id : sorted) {
    if (!first)
      rows_ += ' ';
    rows_ += std::to_string(id);
    first = false;
  }
  rows_ += '\n';
  nb_rows_++;
}

void DataCsv::write(const std::string& path) const
{
  write_file_atomically(path, header() + rows_);
}

} // namespace datasched
