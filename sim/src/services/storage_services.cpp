#include "services/storage_services.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Io.hpp>

#include "services/idle_load.hpp"
#include "services/memory_traffic.hpp"

namespace datasched::interference {

namespace sg4 = simgrid::s4u;

std::string to_string(ServiceKind kind)
{
  return kind == ServiceKind::Storage ? "storage" : "metadata";
}

Service::Service(ServiceKind kind, sg4::Host* host, sg4::Disk* disk, int workers, const DaemonCosts& costs,
                 sg4::Disk* memory, double io_copies)
    : kind_(kind), host_(host), disk_(disk), memory_(memory), io_copies_(io_copies),
      workers_(sg4::Semaphore::create(workers)), costs_(costs)
{}

void Service::compute(sg4::Host* host, double flops)
{
  // Not host->exec_async(): in SimGrid 3.32 it runs on the *calling actor's* host (the
  // client's, here), whatever host it is called on.
  if (flops > 0)
    sg4::this_actor::exec_init(flops)->set_host(host)->start()->wait();
}

void Service::write(std::uint64_t requests, std::uint64_t bytes, std::uint64_t device_bytes)
{
  workers_->acquire();
  const double flops = storage_work(costs_, requests, bytes);
  compute(host_, flops);
  // The copies through memory (the NIC's DMA into a buffer, the service's copy, the
  // device's DMA out) overlap the device write: the request ends when both have.
  auto copies = start_memory_traffic(memory_, io_copies_ * static_cast<double>(device_bytes));
  if (device_bytes > 0)
    disk_->write(static_cast<sg_size_t>(device_bytes));
  if (copies)
    copies->wait();
  workers_->release();
  stats_.requests += requests;
  stats_.bytes += bytes;
  stats_.request_flops += flops;
}

void Service::metadata(double operations)
{
  workers_->acquire();
  const double flops = metadata_work(costs_, operations);
  compute(host_, flops);
  workers_->release();
  stats_.metadata_ops += operations;
  stats_.request_flops += flops;
}

void Service::start_idle_load(const std::string& actor_name, double phase)
{
  datasched::start_idle_load(host_, actor_name, costs_, phase, &stats_.idle_flops);
}

} // namespace datasched::interference
