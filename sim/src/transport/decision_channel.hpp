#pragma once
// How the engine reaches the decision process: one request, one reply per decision
// round (Batsim 4's protocol messages, as JSON text).
//
// - ZmqClient (zmq_client.hpp): a separate process behind a ZeroMQ REQ/REP pair, the
//   default and the only way for pybatsim and real Batsim's decision processes.
// - CallbackChannel (callback_channel.hpp): a function of the engine's own process,
//   for our Python policies run in process (embed.hpp): the same messages without a
//   socket round trip and two context switches per round.
#include <string>

namespace datasched {

class DecisionChannel {
public:
  virtual ~DecisionChannel() = default;

  /// Sends `request` and returns the reply; throws std::runtime_error (with a message
  /// naming the decision process) when there is none.
  virtual std::string exchange(const std::string& request) = 0;

  /// Wall-clock seconds spent waiting for the decision process (Batsim's scheduling_time).
  virtual double waited_seconds() const = 0;
};

} // namespace datasched
