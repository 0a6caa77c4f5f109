#include "qos/outputs.hpp"

#include "common/csv.hpp"

namespace datasched::qos {

std::vector<std::string> output_files(const std::string& prefix)
{
  return {prefix + "_benchmark.csv", prefix + "_transfers.csv", prefix + "_writes.csv", prefix + "_staging.csv",
          prefix + "_summary.csv"};
}

void write_outputs(const std::string& prefix, const Experiment& e, const Results& r)
{
  const auto files = output_files(prefix);
  std::string bench =
      "benchmark,sl,noise_sl,size,iterations,latency,bandwidth,runtime,compute_time,communication_time,start,end\n";
  if (e.benchmark) {
    const auto& b           = *e.benchmark;
    const std::string kind  = to_string(b.kind);
    const std::string noise = e.noise ? std::to_string(e.noise->sl) : "";
    const bool sized        = per_size(b.kind);
    const bool bandwidth    = reports_bandwidth(b.kind);
    for (const auto& row : r.benchmark) {
      bench += kind + "," + std::to_string(b.sl) + "," + noise + "," + (sized ? whole_number(row.size) : "") + "," +
               std::to_string(row.iterations) + "," + (sized && !bandwidth ? fixed9(row.value) : "") + "," +
               (bandwidth ? fixed9(row.value) : "") + "," + (sized ? "" : fixed9(row.value)) + "," +
               (sized ? "" : fixed9(row.compute)) + "," + (sized ? "" : fixed9(row.communicate)) + "," +
               fixed9(row.start) + "," + fixed9(row.end) + "\n";
    }
  }
  write_file_atomically(files[0], bench);

  std::string transfers = "name,src,dst,bytes,sl,priority,start,end\n";
  for (std::size_t i = 0; i < e.transfers.size(); ++i) {
    const auto& t = e.transfers[i];
    const auto& x = r.transfers[i];
    transfers += t.name + "," + t.src + "," + t.dst + "," + whole_number(t.bytes) + "," + std::to_string(t.sl) + "," +
                 fixed9(x.priority) + "," + fixed9(x.start) + "," + fixed9(x.end) + "\n";
  }
  write_file_atomically(files[1], transfers);

  std::string writes = "write,host,bytes,block_size,sl,start,absorbed,drained\n";
  for (std::size_t i = 0; i < e.writes.size(); ++i) {
    const auto& w = e.writes[i];
    const auto& x = r.writes[i];
    writes += std::to_string(i) + "," + w.host + "," + whole_number(w.bytes) + "," + whole_number(w.block_size) + "," +
              std::to_string(w.sl) + "," + fixed9(x.start) + "," + fixed9(x.absorbed) + "," + fixed9(x.drained) + "\n";
  }
  write_file_atomically(files[2], writes);

  std::string staging = "server,absorbed_bytes,ssd_bytes,drained_bytes,staged_at_end,buffered_at_end,blocks,chunks,"
                        "forced_chunks,drain_busy,first_drain,last_drain_end,max_fill\n";
  if (r.staging) {
    const auto& s = r.staging->stats();
    staging += r.staging->name() + "," + whole_number(s.absorbed_bytes) + "," + whole_number(s.ssd_bytes) + "," +
               whole_number(s.drained_bytes) + "," + whole_number(r.staging->staged_bytes()) + "," +
               whole_number(r.staging->buffered_bytes()) + "," + std::to_string(s.blocks) + "," +
               std::to_string(s.chunks) + "," + std::to_string(s.forced_chunks) + "," + fixed9(s.drain_busy) + "," +
               fixed9(s.first_drain) + "," + fixed9(s.last_drain_end) + "," + whole_number(s.max_fill) + "\n";
  }
  write_file_atomically(files[3], staging);

  std::string summary = "solver,activities,max_concurrent_activities,noise_bytes,simulated_time\n";
  summary += std::string(r.weighted ? "fair_bottleneck_weighted" : "fair_bottleneck") + "," +
             std::to_string(r.activities) + "," + std::to_string(r.max_concurrent) + "," + whole_number(r.noise_bytes) +
             "," + fixed9(r.simulated_time) + "\n";
  write_file_atomically(files[4], summary);
}

} // namespace datasched::qos
