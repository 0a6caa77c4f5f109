#pragma once
// The engine's side of the ZeroMQ REQ/REP pair: the decision process binds a REP
// socket, the engine connects a REQ socket and sends one request per decision round.
#include <string>

#include <zmq.hpp>

namespace datasched {

class ZmqClient {
public:
  /// `timeout_seconds` bounds the wait for each reply (<= 0: wait forever).
  ZmqClient(const std::string& endpoint, double timeout_seconds);
  ~ZmqClient();

  /// Sends `request` and returns the reply. Throws std::runtime_error on timeout,
  /// naming the endpoint and the timeout, so a dead or hung decision process never
  /// hangs the engine.
  std::string exchange(const std::string& request);

  /// Wall-clock seconds spent waiting for the decision process (Batsim's scheduling_time).
  double waited_seconds() const { return waited_seconds_; }

private:
  zmq::context_t context_;
  zmq::socket_t socket_;
  std::string endpoint_;
  double timeout_seconds_;
  double waited_seconds_ = 0;
};

} // namespace datasched
