// The engine's REQ side (ZmqClient, both transports) against a real libzmq REP
// socket: the wire format must be what any ZeroMQ decision process expects.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include <zmq.hpp>

#include "transport/callback_channel.hpp"
#include "transport/zmq_client.hpp"

using namespace datasched;

namespace {

/// A REP socket on an ephemeral port that answers `n` requests with "echo:" + request.
class EchoServer {
public:
  explicit EchoServer(int n) : socket_(context_, zmq::socket_type::rep)
  {
    socket_.bind("tcp://127.0.0.1:*");
    endpoint_ = socket_.get(zmq::sockopt::last_endpoint);
    thread_   = std::thread([this, n]() {
      for (int i = 0; i < n; ++i) {
        zmq::message_t request;
        if (!socket_.recv(request))
          return;
        std::string reply = "echo:" + request.to_string();
        socket_.send(zmq::buffer(reply), zmq::send_flags::none);
      }
    });
  }
  ~EchoServer()
  {
    thread_.join();
    socket_.close();
  }
  const std::string& endpoint() const { return endpoint_; }

private:
  zmq::context_t context_;
  zmq::socket_t socket_;
  std::string endpoint_;
  std::thread thread_;
};

class ZmqClientTest : public ::testing::TestWithParam<ZmqTransport> {};

} // namespace

INSTANTIATE_TEST_SUITE_P(Transports, ZmqClientTest, ::testing::Values(ZmqTransport::builtin, ZmqTransport::libzmq),
                         [](const auto& info) { return info.param == ZmqTransport::builtin ? "builtin" : "libzmq"; });

TEST_P(ZmqClientTest, ExchangesWithALibzmqRepSocket)
{
  const std::string big(300000, 'x'); // a long frame, larger than the receive buffer
  EchoServer server(4);
  ZmqClient client(server.endpoint(), 10, GetParam());
  EXPECT_EQ(client.transport(), GetParam());
  EXPECT_EQ(client.exchange("hello"), "echo:hello");
  EXPECT_EQ(client.exchange(""), "echo:");
  EXPECT_EQ(client.exchange(std::string(1000, 'a')), "echo:" + std::string(1000, 'a'));
  EXPECT_EQ(client.exchange(big), "echo:" + big);
  EXPECT_GE(client.waited_seconds(), 0.0);
}

TEST_P(ZmqClientTest, WaitsForADecisionProcessThatBindsLate)
{
  // Find a free port, release it, and bind the REP socket there only after a delay.
  std::string endpoint;
  {
    zmq::context_t c;
    zmq::socket_t probe(c, zmq::socket_type::rep);
    probe.bind("tcp://127.0.0.1:*");
    endpoint = probe.get(zmq::sockopt::last_endpoint);
  }
  ZmqClient client(endpoint, 10, GetParam());
  std::thread late([endpoint]() {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    zmq::context_t c;
    zmq::socket_t rep(c, zmq::socket_type::rep);
    rep.bind(endpoint);
    zmq::message_t request;
    (void)rep.recv(request);
    rep.send(zmq::buffer(std::string("late")), zmq::send_flags::none);
  });
  EXPECT_EQ(client.exchange("ping"), "late");
  late.join();
}

TEST_P(ZmqClientTest, NobodyListeningIsATimeoutNamingTheEndpoint)
{
  ZmqClient client("tcp://127.0.0.1:9", 0.3, GetParam());
  auto start = std::chrono::steady_clock::now();
  try {
    client.exchange("anyone?");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("tcp://127.0.0.1:9 did not answer within"), std::string::npos) << e.what();
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(250));
}

TEST_P(ZmqClientTest, ADecisionProcessThatExitsMidRunIsATimeout)
{
  // One client for the whole run: the decision process answers the first request, then
  // exits (socket and context closed) while the engine is still connected to it.
  auto server = std::make_unique<EchoServer>(1);
  ZmqClient client(server->endpoint(), 0.4, GetParam());
  EXPECT_EQ(client.exchange("first"), "echo:first");
  const std::string endpoint = server->endpoint();
  server.reset();
  auto start = std::chrono::steady_clock::now();
  try {
    client.exchange("second");
    FAIL() << "no exception after the decision process exited";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(endpoint), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(ZmqClient, BuiltinTransportFallsBackToLibzmqForOtherEndpoints)
{
  const std::string path = testing::TempDir() + "datasched-transport-test.ipc";
  zmq::context_t context;
  zmq::socket_t rep(context, zmq::socket_type::rep);
  rep.bind("ipc://" + path);
  std::thread server([&rep]() {
    zmq::message_t request;
    if (rep.recv(request))
      rep.send(zmq::buffer("ipc:" + request.to_string()), zmq::send_flags::none);
  });
  ZmqClient client("ipc://" + path, 10, ZmqTransport::builtin);
  EXPECT_EQ(client.transport(), ZmqTransport::libzmq);
  EXPECT_EQ(client.exchange("x"), "ipc:x");
  server.join();
}

TEST(ZmtpConnection, HandlesOnlyIpv4TcpEndpoints)
{
  EXPECT_TRUE(ZmtpConnection::for_endpoint("tcp://127.0.0.1:28000").has_value());
  EXPECT_TRUE(ZmtpConnection::for_endpoint("tcp://localhost:28000").has_value());
  EXPECT_FALSE(ZmtpConnection::for_endpoint("ipc:///tmp/x").has_value());
  EXPECT_FALSE(ZmtpConnection::for_endpoint("tcp://[::1]:28000").has_value());
  EXPECT_FALSE(ZmtpConnection::for_endpoint("tcp://*:28000").has_value());
  EXPECT_FALSE(ZmtpConnection::for_endpoint("tcp://127.0.0.1:port").has_value());
}

// The in-process channel: each exchange is one call of the C callback, whose reply is
// copied (the caller may reuse its buffer), and a non-zero status is an error.
namespace {
struct EchoCallback {
  std::string reply;
  int calls   = 0;
  int fail_at = -1;
};

extern "C" int echo_decide(void* user, const char* request, size_t size, const char** reply, size_t* reply_size)
{
  auto* state = static_cast<EchoCallback*>(user);
  if (state->calls++ == state->fail_at)
    return 3;
  state->reply = "echo:" + std::string(request, size);
  *reply       = state->reply.data();
  *reply_size  = state->reply.size();
  return 0;
}
} // namespace

TEST(CallbackChannel, EachExchangeCallsTheCallbackAndCopiesItsReply)
{
  EchoCallback state;
  datasched::CallbackChannel channel(echo_decide, &state);
  const std::string big(300000, 'x');
  std::string first = channel.exchange("hello");
  EXPECT_EQ(channel.exchange(big), "echo:" + big);
  EXPECT_EQ(first, "echo:hello"); // not overwritten by the next call's buffer
  EXPECT_EQ(channel.exchange(""), "echo:");
  EXPECT_EQ(state.calls, 3);
  EXPECT_GE(channel.waited_seconds(), 0.0);
}

TEST(CallbackChannel, AFailedCallbackIsAnError)
{
  EchoCallback state;
  state.fail_at = 1;
  datasched::CallbackChannel channel(echo_decide, &state);
  EXPECT_EQ(channel.exchange("ok"), "echo:ok");
  try {
    channel.exchange("fails");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("in-process decision process failed (status 3"), std::string::npos)
        << e.what();
  }
}
