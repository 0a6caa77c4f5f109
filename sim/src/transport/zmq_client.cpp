#include "transport/zmq_client.hpp"

#include <chrono>
#include <stdexcept>

namespace datasched {

ZmqClient::ZmqClient(const std::string& endpoint, double timeout_seconds)
    : context_(1), socket_(context_, zmq::socket_type::req), endpoint_(endpoint), timeout_seconds_(timeout_seconds)
{
  socket_.set(zmq::sockopt::linger, 0);
  socket_.connect(endpoint_);
}

ZmqClient::~ZmqClient()
{
  try {
    socket_.close();
    context_.close();
  } catch (...) {
  }
}

std::string ZmqClient::exchange(const std::string& request)
{
  auto start = std::chrono::steady_clock::now();
  socket_.send(zmq::buffer(request), zmq::send_flags::none);
  zmq::pollitem_t items[] = {{static_cast<void*>(socket_), 0, ZMQ_POLLIN, 0}};
  const long timeout_ms   = timeout_seconds_ > 0 ? static_cast<long>(timeout_seconds_ * 1000) : -1;
  int ready               = zmq::poll(items, 1, std::chrono::milliseconds(timeout_ms));
  if (ready == 0 || !(items[0].revents & ZMQ_POLLIN))
    throw std::runtime_error("the decision process at " + endpoint_ + " did not answer within " +
                             std::to_string(timeout_seconds_) +
                             " s (it exited, hung, or is not listening; see --decision-timeout)");
  zmq::message_t reply;
  auto received = socket_.recv(reply, zmq::recv_flags::none);
  if (!received)
    throw std::runtime_error("failed to receive the decision process's reply from " + endpoint_);
  waited_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return reply.to_string();
}

} // namespace datasched
