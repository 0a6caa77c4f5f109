#include "transport/callback_channel.hpp"

#include <chrono>
#include <stdexcept>

namespace datasched {

std::string CallbackChannel::exchange(const std::string& request)
{
  const auto start       = std::chrono::steady_clock::now();
  const char* reply      = nullptr;
  std::size_t reply_size = 0;
  const int status       = decide_(user_, request.data(), request.size(), &reply, &reply_size);
  waited_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status != 0)
    throw std::runtime_error("the in-process decision process failed (status " + std::to_string(status) +
                             "; its message is above)");
  if (reply == nullptr && reply_size > 0)
    throw std::runtime_error("the in-process decision process returned no reply");
  return std::string(reply == nullptr ? "" : reply, reply_size);
}

} // namespace datasched
