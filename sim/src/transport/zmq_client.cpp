#include "transport/zmq_client.hpp"

#include <chrono>
#include <stdexcept>

namespace datasched {

ZmqClient::ZmqClient(const std::string& endpoint, double timeout_seconds, ZmqTransport transport)
    : builtin_(transport == ZmqTransport::builtin ? ZmtpConnection::for_endpoint(endpoint) : std::nullopt),
      endpoint_(endpoint), timeout_seconds_(timeout_seconds)
{
  if (!builtin_) {
    context_ = std::make_unique<zmq::context_t>(1);
    socket_  = std::make_unique<zmq::socket_t>(*context_, zmq::socket_type::req);
    socket_->set(zmq::sockopt::linger, 0);
    socket_->connect(endpoint_);
  }
}

ZmqClient::~ZmqClient()
{
  try {
    if (socket_)
      socket_->close();
    if (context_)
      context_->close();
  } catch (...) {
  }
}

void ZmqClient::throw_timeout() const
{
  throw std::runtime_error("the decision process at " + endpoint_ + " did not answer within " +
                           std::to_string(timeout_seconds_) +
                           " s (it exited, hung, or is not listening; see --decision-timeout)");
}

std::string ZmqClient::exchange(const std::string& request)
{
  auto start = std::chrono::steady_clock::now();
  std::string reply;
  if (builtin_) {
    ZmtpConnection::Deadline deadline;
    if (timeout_seconds_ > 0)
      deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(timeout_seconds_));
    auto answer = builtin_->exchange(request, deadline);
    if (!answer)
      throw_timeout();
    reply = std::move(*answer);
  } else {
    reply = exchange_with_libzmq(request);
  }
  waited_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return reply;
}

std::string ZmqClient::exchange_with_libzmq(const std::string& request)
{
  socket_->send(zmq::buffer(request), zmq::send_flags::none);
  zmq::pollitem_t items[] = {{static_cast<void*>(*socket_), 0, ZMQ_POLLIN, 0}};
  const long timeout_ms   = timeout_seconds_ > 0 ? static_cast<long>(timeout_seconds_ * 1000) : -1;
  int ready               = zmq::poll(items, 1, std::chrono::milliseconds(timeout_ms));
  if (ready == 0 || !(items[0].revents & ZMQ_POLLIN))
    throw_timeout();
  zmq::message_t reply;
  auto received = socket_->recv(reply, zmq::recv_flags::none);
  if (!received)
    throw std::runtime_error("failed to receive the decision process's reply from " + endpoint_);
  return reply.to_string();
}

} // namespace datasched
