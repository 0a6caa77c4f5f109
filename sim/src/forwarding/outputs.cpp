#include "forwarding/outputs.hpp"

#include <simgrid/s4u/Host.hpp>

#include "common/csv.hpp"

namespace datasched::forwarding {

namespace {
/// count,first,last of an arrival span (times 0 when none arrived).
std::string arrivals(const ArrivalSpan& span)
{
  return std::to_string(span.count) + "," + fixed9(span.first) + "," + fixed9(span.last);
}

std::string mean(std::uint64_t total, std::uint64_t count)
{
  return count == 0 ? std::string("0.000000") : fixed6(static_cast<double>(total) / static_cast<double>(count));
}
} // namespace

void write_layer_outputs(const std::string& prefix, SchedulerKind scheduler, const std::vector<std::string>& forwarders,
                         const std::vector<std::string>& servers, const std::vector<ForwarderStats>& forwarder_stats,
                         const std::vector<ServerStats>& server_stats)
{
  std::string fwd = "forwarder,host,scheduler,client_requests,client_bytes,mean_client_request_size,dispatches,"
                    "mean_dispatch_size,server_requests,mean_server_request_size,mean_queue_wait,max_queue_wait\n";
  for (std::size_t i = 0; i < forwarders.size(); ++i) {
    const auto& s = forwarder_stats[i];
    fwd += std::to_string(i) + "," + forwarders[i] + "," + to_string(scheduler) + "," +
           std::to_string(s.client_requests) + "," + std::to_string(s.client_bytes) + "," +
           mean(s.client_bytes, s.client_requests) + "," + std::to_string(s.dispatches) + "," +
           mean(s.dispatch_bytes, s.dispatches) + "," + std::to_string(s.server_requests) + "," +
           mean(s.server_bytes, s.server_requests) + "," +
           (s.waits ? fixed9(s.wait_sum / static_cast<double>(s.waits)) : fixed9(0)) + "," + fixed9(s.wait_max) + "\n";
  }
  write_file_atomically(prefix + "_forwarders.csv", fwd);

  std::string srv =
      "server,host,requests,bytes,mean_request_size,busy_time,mean_concurrency,max_concurrency,device_requests,"
      "cache_hits,read_requests,first_read_arrival,last_read_arrival,write_requests,first_write_arrival,"
      "last_write_arrival\n";
  for (std::size_t i = 0; i < servers.size(); ++i) {
    const auto& s = server_stats[i];
    srv += std::to_string(i) + "," + servers[i] + "," + std::to_string(s.requests) + "," + std::to_string(s.bytes) +
           "," + mean(s.bytes, s.requests) + "," + fixed9(s.busy_time) + "," +
           fixed6(s.busy_time > 0 ? s.disk_time / s.busy_time : 0) + "," + std::to_string(s.max_active) + "," +
           std::to_string(s.device_requests) + "," + std::to_string(s.cache_hits) + "," + arrivals(s.read_arrivals) +
           "," + arrivals(s.write_arrivals) + "\n";
  }
  write_file_atomically(prefix + "_servers.csv", srv);
}

std::vector<std::string> output_files(const std::string& prefix, const Experiment& experiment)
{
  std::vector<std::string> files{prefix + "_applications.csv", prefix + "_forwarders.csv", prefix + "_servers.csv"};
  if (experiment.dispatch_trace)
    files.push_back(prefix + "_dispatches.csv");
  return files;
}

void write_outputs(const std::string& prefix, const Experiment& e, const Layout& layout, const Statistics& stats)
{
  std::string apps = "application,processes,pattern,operation,request_size,bytes,requests,start,first_request,end,"
                     "makespan\n";
  for (std::size_t i = 0; i < e.applications.size(); ++i) {
    const auto& a = e.applications[i];
    const auto& s = stats.applications[i];
    apps += a.name + "," + std::to_string(a.processes) + "," + to_string(a.pattern) + "," + to_string(a.operation) +
            "," + std::to_string(a.request_size) + "," +
            std::to_string(a.bytes_per_process * static_cast<std::uint64_t>(a.processes)) + "," +
            std::to_string(s.requests) + "," + fixed9(a.start) + "," + fixed9(s.first_start) + "," + fixed9(s.end) +
            "," + fixed9(s.end - a.start) + "\n";
  }
  write_file_atomically(prefix + "_applications.csv", apps);

  std::vector<std::string> forwarders, servers;
  for (auto* h : layout.forwarders)
    forwarders.push_back(h->get_name());
  for (auto* h : layout.servers)
    servers.push_back(h->get_name());
  write_layer_outputs(prefix, e.forwarding.scheduler, forwarders, servers, stats.forwarders, stats.servers);

  if (e.dispatch_trace) {
    std::string trace = "source,server,start,end,bytes,client_requests\n";
    for (const auto& d : stats.dispatches)
      trace += d.source + "," + std::to_string(d.server) + "," + fixed9(d.start) + "," + fixed9(d.end) + "," +
               std::to_string(d.bytes) + "," + std::to_string(d.client_requests) + "\n";
    write_file_atomically(prefix + "_dispatches.csv", trace);
  }
}

} // namespace datasched::forwarding
