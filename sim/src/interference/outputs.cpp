#include "interference/outputs.hpp"

#include <simgrid/s4u/Host.hpp>

#include "common/csv.hpp"

namespace datasched::interference {

std::vector<std::string> output_files(const std::string& prefix)
{
  return {prefix + "_hpl.csv", prefix + "_iterations.csv", prefix + "_services.csv", prefix + "_ior.csv"};
}

void write_outputs(const std::string& prefix, const Experiment& e, const Layout& layout, const RunResults& r)
{
  const auto& hpl      = r.hpl;
  std::string text     = "nodes,iterations,start,end,makespan,compute_alone,mean_iteration,max_iteration\n";
  double max_iteration = 0;
  for (const auto& it : hpl.iterations)
    max_iteration = std::max(max_iteration, it.end - it.start);
  const double makespan = hpl.end - hpl.start;
  text += std::to_string(layout.hpl.size()) + "," + std::to_string(e.hpl.iterations) + "," + fixed9(hpl.start) + "," +
          fixed9(hpl.end) + "," + fixed9(makespan) + "," + fixed9(hpl_compute_time_alone(e.hpl, e.memory, layout.hpl)) +
          "," + fixed9(makespan / e.hpl.iterations) + "," + fixed9(max_iteration) + "\n";
  write_file_atomically(prefix + "_hpl.csv", text);

  text = "iteration,start,compute_end,end,slowest_host\n";
  for (std::size_t i = 0; i < hpl.iterations.size(); ++i) {
    const auto& it = hpl.iterations[i];
    text += std::to_string(i) + "," + fixed9(it.start) + "," + fixed9(it.compute_end) + "," + fixed9(it.end) + "," +
            layout.hpl[static_cast<std::size_t>(it.slowest_node)]->get_name() + "\n";
  }
  write_file_atomically(prefix + "_iterations.csv", text);

  text = "host,service,requests,bytes,metadata_ops,request_flops,idle_flops\n";
  for (const auto& s : r.services) {
    const auto& st = s->stats();
    text += s->host()->get_name() + "," + to_string(s->kind()) + "," + std::to_string(st.requests) + "," +
            std::to_string(st.bytes) + "," + general6(st.metadata_ops) + "," + general6(st.request_flops) + "," +
            general6(st.idle_flops) + "\n";
  }
  write_file_atomically(prefix + "_services.csv", text);

  text = "nodes,processes,requests,bytes\n";
  text += std::to_string(layout.ior.size()) + "," +
          std::to_string(layout.ior.size() * static_cast<std::size_t>(e.ior.processes_per_node)) + "," +
          std::to_string(r.ior.requests) + "," + std::to_string(r.ior.bytes) + "\n";
  write_file_atomically(prefix + "_ior.csv", text);
}

} // namespace datasched::interference
