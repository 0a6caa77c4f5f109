#pragma once
// A ZeroMQ REQ peer written directly on a TCP socket (ZMTP 3.0, NULL security), used
// for tcp:// endpoints.
//
// Why not libzmq here: libzmq does all socket I/O in a background thread, so each of
// the ~2 requests per job costs two extra thread wake-ups (eventfd + epoll on both
// sides) on top of the TCP round trip. On the 50,000-job benchmark that was about 5 s
// of the engine's 16.8 s of CPU (30 %) before this client replaced it. The engine is strictly request/reply and single-threaded,
// so a blocking socket in the calling thread does the same job with one send and one
// receive per exchange. The wire format is the standard one (RFC 23/ZMTP + 28/REQREP):
// any ZeroMQ REP or ROUTER socket (pyzmq, libzmq, Batsim's tools) is a valid peer.
//
// Behaviour kept from the libzmq REQ socket it replaces: connecting is retried until
// the exchange's deadline (the decision process may bind after the engine starts),
// TCP_NODELAY is set, and a peer that disconnects is treated like one that does not
// answer (the exchange fails when its deadline passes).
#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace datasched {

class ZmtpConnection {
public:
  /// Parses "tcp://host:port" (IPv4 host name or address, as libzmq resolves it by
  /// default). Returns nothing for any other endpoint, so the caller can fall back.
  static std::optional<ZmtpConnection> for_endpoint(const std::string& endpoint);

  ZmtpConnection(ZmtpConnection&& other) noexcept;
  ZmtpConnection& operator=(ZmtpConnection&&)      = delete;
  ZmtpConnection(const ZmtpConnection&)            = delete;
  ZmtpConnection& operator=(const ZmtpConnection&) = delete;
  ~ZmtpConnection();

  using Deadline = std::optional<std::chrono::steady_clock::time_point>; ///< nothing: wait forever

  /// Sends `request` as one message and returns the reply's body. Returns nothing when
  /// the deadline passed first (no connection, no answer, or the peer went away).
  /// Throws std::runtime_error on a protocol violation by the peer.
  std::optional<std::string> exchange(const std::string& request, Deadline deadline);

private:
  ZmtpConnection(std::string host, std::string port) : host_(std::move(host)), port_(std::move(port)) {}

  bool connect_and_handshake(Deadline deadline);
  bool try_connect(Deadline deadline);
  bool handshake(Deadline deadline);
  bool send_all(const char* data, size_t size, Deadline deadline);
  bool send_message(const std::string& body, Deadline deadline);
  /// Reads one frame; `flags` gets the frame's flags byte.
  bool read_frame(unsigned char& flags, std::string& body, Deadline deadline);
  bool read_exact(char* out, size_t size, Deadline deadline);
  bool fill(Deadline deadline);
  bool wait_for(short events, Deadline deadline); ///< while connecting (non-blocking socket)
  /// Bounds the next blocking send/recv by `deadline`; false when it has passed.
  bool arm_timeouts(Deadline deadline);
  /// One blocking recv() bounded by `deadline`: bytes received, or -1 (timeout, closed).
  ssize_t receive_some(char* out, size_t size, Deadline deadline);
  void disconnect();

  std::string host_;
  std::string port_;
  int fd_                             = -1;
  long long armed_ms_                 = -1; ///< SO_RCVTIMEO/SO_SNDTIMEO currently set (ms, 0: none, -1: unknown)
  static constexpr size_t INPUT_CHUNK = 64 * 1024;
  std::vector<char> input_; ///< receive buffer: [input_begin_, input_end_) is not consumed yet
  size_t input_begin_ = 0;
  size_t input_end_   = 0;
};

} // namespace datasched
