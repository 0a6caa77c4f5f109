#include "execution/messages.hpp"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace datasched {

namespace {
// Looked up on every send: caching the Mailbox pointer in a static broke the
// external-events tests (a null mailbox at the second send), so it is not cached.
simgrid::s4u::Mailbox* server_mailbox()
{
  return simgrid::s4u::Mailbox::by_name("server");
}
} // namespace

void send_to_server(Message* message) { server_mailbox()->put(message, 1); }

void send_to_server_detached(Message* message)
{
  // Deleted by the server on receipt, or here if the transfer fails.
  server_mailbox()->put_init(message, 1)->detach([](void* m) { delete static_cast<Message*>(m); });
}

} // namespace datasched
