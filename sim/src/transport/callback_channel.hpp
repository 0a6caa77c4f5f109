#pragma once
// A decision process that is a C function of the engine's own process (the in-process
// mode, embed.hpp): each round calls `decide` with the request and copies its reply.
#include <cstddef>

#include "transport/decision_channel.hpp"

extern "C" {
/// Answers one request. On success returns 0 and points `*reply` at `*reply_size`
/// bytes that stay valid until the next call; any other value means the decision
/// process failed (it has reported why on stderr) and the simulation stops.
typedef int (*datasched_decide_fn)(void* user, const char* request, size_t request_size, const char** reply,
                                   size_t* reply_size);
}

namespace datasched {

class CallbackChannel : public DecisionChannel {
public:
  CallbackChannel(datasched_decide_fn decide, void* user) : decide_(decide), user_(user) {}

  std::string exchange(const std::string& request) override;
  double waited_seconds() const override { return waited_seconds_; }

private:
  datasched_decide_fn decide_;
  void* user_;
  double waited_seconds_ = 0;
};

} // namespace datasched
