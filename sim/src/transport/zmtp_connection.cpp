#include "transport/zmtp_connection.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

namespace datasched {

namespace {

using Clock = std::chrono::steady_clock;

constexpr unsigned char FLAG_MORE    = 0x01;
constexpr unsigned char FLAG_LONG    = 0x02;
constexpr unsigned char FLAG_COMMAND = 0x04;
constexpr size_t GREETING_SIZE       = 64;
/// libzmq's reconnection interval (ZMQ_RECONNECT_IVL default).
constexpr auto RECONNECT_INTERVAL = std::chrono::milliseconds(100);

/// Milliseconds left before `deadline` for poll(): -1 waits forever, 0 when it passed.
int poll_timeout(const ZmtpConnection::Deadline& deadline)
{
  if (!deadline)
    return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count() + 1;
  return static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
}

bool passed(const ZmtpConnection::Deadline& deadline)
{
  return deadline && Clock::now() >= *deadline;
}

/// The 64-byte ZMTP 3.0 greeting of a client using the NULL mechanism.
std::string greeting()
{
  std::string g(GREETING_SIZE, '\0');
  g[0]  = static_cast<char>(0xFF); // signature: 0xFF, 8 bytes of padding, 0x7F
  g[8]  = 0x01;                    // padding as libzmq writes it (empty identity + 1)
  g[9]  = 0x7F;
  g[10] = 3; // version 3.0
  g[11] = 0;
  std::memcpy(&g[12], "NULL", 4); // mechanism, zero-padded to 20 bytes; as-server = 0; filler
  return g;
}

void append_property(std::string& out, const std::string& name, const std::string& value)
{
  out += static_cast<char>(name.size());
  out += name;
  const uint32_t n = static_cast<uint32_t>(value.size());
  for (int shift = 24; shift >= 0; shift -= 8)
    out += static_cast<char>((n >> shift) & 0xFF);
  out += value;
}

/// READY command frame announcing a REQ socket (with an empty Identity, as libzmq sends).
std::string ready_command()
{
  std::string body;
  body += static_cast<char>(5);
  body += "READY";
  append_property(body, "Socket-Type", "REQ");
  append_property(body, "Identity", "");
  std::string frame;
  frame += static_cast<char>(FLAG_COMMAND);
  frame += static_cast<char>(body.size());
  return frame + body;
}

/// Value of property `name` in a READY command body, if present.
std::optional<std::string> ready_property(const std::string& body, const std::string& name)
{
  size_t pos = 6; // "\x05READY"
  while (pos < body.size()) {
    const size_t name_size = static_cast<unsigned char>(body[pos++]);
    if (pos + name_size + 4 > body.size())
      return std::nullopt;
    std::string key = body.substr(pos, name_size);
    pos += name_size;
    uint32_t value_size = 0;
    for (int i = 0; i < 4; ++i)
      value_size = (value_size << 8) | static_cast<unsigned char>(body[pos++]);
    if (pos + value_size > body.size())
      return std::nullopt;
    if (key.size() == name.size() && std::equal(key.begin(), key.end(), name.begin(),
                                                [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
      return body.substr(pos, value_size);
    pos += value_size;
  }
  return std::nullopt;
}

bool is_command(const std::string& body, const char* name)
{
  const size_t n = std::strlen(name);
  return !body.empty() && static_cast<unsigned char>(body[0]) == n && body.compare(1, n, name) == 0;
}

} // namespace

std::optional<ZmtpConnection> ZmtpConnection::for_endpoint(const std::string& endpoint)
{
  const std::string scheme = "tcp://";
  if (endpoint.compare(0, scheme.size(), scheme) != 0)
    return std::nullopt;
  const std::string address = endpoint.substr(scheme.size());
  const size_t colon        = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || address.front() == '[' || address.find(';') != std::string::npos)
    return std::nullopt; // IPv6 literals, source addresses...: libzmq handles them
  std::string host = address.substr(0, colon), port = address.substr(colon + 1);
  if (host == "*" || port.empty() ||
      !std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  addrinfo hints{};
  hints.ai_family   = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found   = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || !found)
    return std::nullopt;
  freeaddrinfo(found);
  return ZmtpConnection(std::move(host), std::move(port));
}

ZmtpConnection::ZmtpConnection(ZmtpConnection&& other) noexcept
    : host_(std::move(other.host_)), port_(std::move(other.port_)), fd_(other.fd_), input_(std::move(other.input_)),
      input_begin_(other.input_begin_), input_end_(other.input_end_)
{
  other.fd_ = -1;
}

ZmtpConnection::~ZmtpConnection()
{
  disconnect();
}

void ZmtpConnection::disconnect()
{
  if (fd_ >= 0)
    ::close(fd_);
  fd_          = -1;
  input_begin_ = input_end_ = 0;
}

bool ZmtpConnection::wait_for(short events, Deadline deadline)
{
  pollfd p{fd_, events, 0};
  for (;;) {
    int ready = ::poll(&p, 1, poll_timeout(deadline));
    if (ready > 0)
      return true;
    if (ready == 0 || errno != EINTR)
      return false;
  }
}

bool ZmtpConnection::try_connect(Deadline deadline)
{
  addrinfo hints{};
  hints.ai_family   = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found   = nullptr;
  if (getaddrinfo(host_.c_str(), port_.c_str(), &hints, &found) != 0 || !found)
    return false;
  bool connected = false;
  for (addrinfo* a = found; a && !connected; a = a->ai_next) {
    fd_ = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd_ < 0)
      continue;
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (::connect(fd_, a->ai_addr, a->ai_addrlen) == 0) {
      connected = true;
    } else if (errno == EINPROGRESS && wait_for(POLLOUT, deadline)) {
      int error      = 0;
      socklen_t size = sizeof error;
      connected      = ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0;
    }
    if (connected) {
      // Connected: from now on the socket blocks, bounded by SO_RCVTIMEO/SO_SNDTIMEO
      // (see arm_timeouts), so an exchange is one send() and usually one recv().
      ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
      armed_ms_ = -1;
    } else {
      disconnect();
    }
  }
  freeaddrinfo(found);
  return connected;
}

bool ZmtpConnection::arm_timeouts(Deadline deadline)
{
  long long ms = 0; // 0: block without limit
  if (deadline) {
    ms = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
    if (ms <= 0)
      return false;
  }
  // Re-armed only when what is armed would overshoot the deadline (by more than the
  // slack), so a run pays for setsockopt about once, not on every exchange. A shorter
  // armed timeout only costs a retry (see receive_some).
  constexpr long long slack_ms = 10;
  if (armed_ms_ >= 0 && (ms == 0 ? armed_ms_ == 0 : armed_ms_ != 0 && armed_ms_ <= ms + slack_ms))
    return true;
  timeval tv{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>((ms % 1000) * 1000)};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  armed_ms_ = ms;
  return true;
}

ssize_t ZmtpConnection::receive_some(char* out, size_t size, Deadline deadline)
{
  for (;;) {
    if (!arm_timeouts(deadline))
      return -1;
    ssize_t got = ::recv(fd_, out, size, 0);
    if (got > 0)
      return got;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !passed(deadline))
      armed_ms_ = -1; // an earlier, shorter timeout fired: re-arm for the time left
    else if (got == 0 || errno != EINTR)
      return -1; // closed by the peer, timed out or failed
  }
}

bool ZmtpConnection::connect_and_handshake(Deadline deadline)
{
  for (;;) {
    if (try_connect(deadline) && handshake(deadline))
      return true;
    disconnect();
    if (passed(deadline))
      return false;
    auto pause = std::chrono::duration_cast<Clock::duration>(RECONNECT_INTERVAL);
    if (deadline)
      pause = std::min(pause, *deadline - Clock::now());
    std::this_thread::sleep_for(pause);
  }
}

bool ZmtpConnection::handshake(Deadline deadline)
{
  const std::string hello = greeting() + ready_command();
  if (!send_all(hello.data(), hello.size(), deadline))
    return false;
  char peer[GREETING_SIZE];
  if (!read_exact(peer, GREETING_SIZE, deadline))
    return false;
  if (static_cast<unsigned char>(peer[0]) != 0xFF || !(peer[9] & 1) || peer[10] < 3)
    throw std::runtime_error("the peer at tcp://" + host_ + ":" + port_ +
                             " does not speak ZMTP 3 (is it a ZeroMQ REP socket of libzmq >= 4?)");
  if (std::memcmp(peer + 12, "NULL", 4) != 0 || peer[16] != 0)
    throw std::runtime_error("the peer at tcp://" + host_ + ":" + port_ +
                             " requires ZeroMQ security; the engine only speaks the NULL mechanism");
  unsigned char flags = 0;
  std::string body;
  if (!read_frame(flags, body, deadline))
    return false;
  if (!(flags & FLAG_COMMAND) || !is_command(body, "READY"))
    throw std::runtime_error("the peer at tcp://" + host_ + ":" + port_ + " did not complete the ZeroMQ handshake");
  auto type = ready_property(body, "Socket-Type");
  if (!type || (*type != "REP" && *type != "ROUTER"))
    throw std::runtime_error("the peer at tcp://" + host_ + ":" + port_ + " is a ZeroMQ " + type.value_or("?") +
                             " socket; the decision process must bind a REP socket");
  return true;
}

bool ZmtpConnection::send_all(const char* data, size_t size, Deadline deadline)
{
  while (size > 0) {
    if (!arm_timeouts(deadline))
      return false;
    ssize_t sent = ::send(fd_, data, size, MSG_NOSIGNAL);
    if (sent > 0) {
      data += sent;
      size -= static_cast<size_t>(sent);
    } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !passed(deadline)) {
      armed_ms_ = -1; // an earlier, shorter timeout fired: re-arm for the time left
    } else if (!(sent < 0 && errno == EINTR)) {
      return false; // timed out or the connection broke
    }
  }
  return true;
}

bool ZmtpConnection::send_message(const std::string& body, Deadline deadline)
{
  // An empty delimiter frame (REQ envelope), then the body as one frame.
  std::string header;
  header += static_cast<char>(FLAG_MORE);
  header += '\0';
  if (body.size() < 256) {
    header += '\0';
    header += static_cast<char>(body.size());
  } else {
    header += static_cast<char>(FLAG_LONG);
    const uint64_t n = body.size();
    for (int shift = 56; shift >= 0; shift -= 8)
      header += static_cast<char>((n >> shift) & 0xFF);
  }
  // One send for small messages, so a request is one TCP segment.
  if (body.size() <= 64 * 1024) {
    header += body;
    return send_all(header.data(), header.size(), deadline);
  }
  return send_all(header.data(), header.size(), deadline) && send_all(body.data(), body.size(), deadline);
}

bool ZmtpConnection::fill(Deadline deadline)
{
  // Received into a heap buffer (the caller may run on a small actor stack).
  if (input_begin_ == input_end_)
    input_begin_ = input_end_ = 0;
  constexpr size_t min_room = 4096;
  if (input_.size() - input_end_ < min_room) {
    std::memmove(input_.data(), input_.data() + input_begin_, input_end_ - input_begin_);
    input_end_ -= input_begin_;
    input_begin_ = 0;
    if (input_.size() - input_end_ < min_room)
      input_.resize(input_end_ + INPUT_CHUNK);
  }
  ssize_t got = receive_some(input_.data() + input_end_, input_.size() - input_end_, deadline);
  if (got <= 0)
    return false;
  input_end_ += static_cast<size_t>(got);
  return true;
}

bool ZmtpConnection::read_exact(char* out, size_t size, Deadline deadline)
{
  while (input_end_ - input_begin_ < size) {
    // A large frame: copy what is buffered, then receive the rest in place.
    if (size - (input_end_ - input_begin_) > INPUT_CHUNK) {
      const size_t buffered = input_end_ - input_begin_;
      std::memcpy(out, input_.data() + input_begin_, buffered);
      input_begin_ = input_end_ = 0;
      out += buffered;
      size -= buffered;
      while (size > 0) {
        ssize_t got = receive_some(out, size, deadline);
        if (got <= 0)
          return false;
        out += got;
        size -= static_cast<size_t>(got);
      }
      return true;
    }
    if (!fill(deadline))
      return false;
  }
  std::memcpy(out, input_.data() + input_begin_, size);
  input_begin_ += size;
  return true;
}

bool ZmtpConnection::read_frame(unsigned char& flags, std::string& body, Deadline deadline)
{
  char head[2];
  if (!read_exact(head, 2, deadline))
    return false;
  flags      = static_cast<unsigned char>(head[0]);
  uint64_t n = static_cast<unsigned char>(head[1]);
  if (flags & FLAG_LONG) {
    char rest[7];
    if (!read_exact(rest, 7, deadline))
      return false;
    for (char c : rest)
      n = (n << 8) | static_cast<unsigned char>(c);
  }
  if (n > (uint64_t{1} << 40))
    throw std::runtime_error("the decision process at tcp://" + host_ + ":" + port_ + " sent a malformed ZeroMQ frame");
  body.resize(static_cast<size_t>(n));
  return read_exact(body.data(), body.size(), deadline);
}

std::optional<std::string> ZmtpConnection::exchange(const std::string& request, Deadline deadline)
{
  for (;;) {
    if (fd_ < 0 && !connect_and_handshake(deadline))
      return std::nullopt;
    if (send_message(request, deadline))
      break;
    disconnect(); // the connection broke before the request left: reconnect and resend, as libzmq does
    if (passed(deadline))
      return std::nullopt;
  }
  // The reply: an empty delimiter, then the body. Heartbeat PINGs are answered and
  // other commands ignored; a reply without the delimiter is a protocol error.
  std::optional<std::string> reply;
  bool delimiter_seen = false;
  for (;;) {
    unsigned char flags = 0;
    std::string frame;
    if (!read_frame(flags, frame, deadline)) {
      disconnect(); // no answer in time, or the peer went away: the caller reports the timeout
      if (deadline && !passed(deadline))
        std::this_thread::sleep_until(*deadline);
      return std::nullopt;
    }
    if (flags & FLAG_COMMAND) {
      if (is_command(frame, "PING") && frame.size() >= 7) {
        // PONG echoes the ping's context (after the 2-byte TTL).
        std::string pong = std::string("\x04PONG") + frame.substr(7);
        std::string out;
        out += static_cast<char>(FLAG_COMMAND);
        out += static_cast<char>(pong.size());
        out += pong;
        if (!send_all(out.data(), out.size(), deadline))
          return std::nullopt;
      } else if (is_command(frame, "ERROR")) {
        throw std::runtime_error("the decision process at tcp://" + host_ + ":" + port_ +
                                 " rejected the ZeroMQ connection");
      }
      continue;
    }
    const bool more = flags & FLAG_MORE;
    if (!delimiter_seen) {
      delimiter_seen = frame.empty() && more;
      if (!delimiter_seen)
        throw std::runtime_error("the decision process at tcp://" + host_ + ":" + port_ +
                                 " sent a reply without the REQ/REP envelope (is it a REP socket?)");
      continue;
    }
    if (!reply)
      reply = std::move(frame); // a multi-part reply: its first part, as zmq recv() returns it
    if (!more)
      return reply;
  }
}

} // namespace datasched
