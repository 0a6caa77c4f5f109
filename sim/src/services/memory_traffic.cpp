#include "services/memory_traffic.hpp"

#include <cmath>

#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Io.hpp>

namespace datasched::interference {

namespace sg4 = simgrid::s4u;

sg4::IoPtr start_memory_traffic(sg4::Disk* memory, double bytes)
{
  if (memory == nullptr) // no memory model: nothing per write or iteration
    return nullptr;
  // SimGrid counts I/O in whole bytes; the experiment reader bounds `bytes` by 1e18.
  const auto whole = static_cast<sg_size_t>(std::llround(bytes));
  if (whole == 0)
    return nullptr;
  auto io = memory->io_init(whole, sg4::Io::OpType::WRITE);
  io->start();
  return io;
}

} // namespace datasched::interference
