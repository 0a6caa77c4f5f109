#pragma once
// The engine's side of the ZeroMQ REQ/REP pair: the decision process binds a REP
// socket, the engine connects a REQ socket and sends one request per decision round.
//
// Two interchangeable transports speak the same wire format (ZMTP 3.0):
// - `builtin` (default, tcp:// endpoints only): ZmtpConnection, a blocking socket in
//   the engine's thread. See zmtp_connection.hpp for why it exists (speed).
// - `libzmq`: a libzmq REQ socket. Used for every other endpoint kind (ipc://,
//   inproc://, IPv6 literals...) and on request, as the reference implementation.
#include <memory>
#include <optional>
#include <string>

#include <zmq.hpp>

#include "transport/decision_channel.hpp"
#include "transport/zmtp_connection.hpp"

namespace datasched {

enum class ZmqTransport { builtin, libzmq };

class ZmqClient : public DecisionChannel {
public:
  /// `timeout_seconds` bounds the wait for each reply (<= 0: wait forever).
  ZmqClient(const std::string& endpoint, double timeout_seconds, ZmqTransport transport = ZmqTransport::builtin);
  ~ZmqClient() override;

  /// Sends `request` and returns the reply. Throws std::runtime_error on timeout,
  /// naming the endpoint and the timeout, so a dead or hung decision process never
  /// hangs the engine.
  std::string exchange(const std::string& request) override;

  /// Wall-clock seconds spent waiting for the decision process (Batsim's scheduling_time).
  double waited_seconds() const override { return waited_seconds_; }

  /// Which transport this client ended up using (builtin falls back to libzmq for
  /// endpoints it does not handle).
  ZmqTransport transport() const { return builtin_ ? ZmqTransport::builtin : ZmqTransport::libzmq; }

private:
  std::string exchange_with_libzmq(const std::string& request);
  [[noreturn]] void throw_timeout() const;

  std::optional<ZmtpConnection> builtin_;
  std::unique_ptr<zmq::context_t> context_;
  std::unique_ptr<zmq::socket_t> socket_;
  std::string endpoint_;
  double timeout_seconds_;
  double waited_seconds_ = 0;
};

} // namespace datasched
