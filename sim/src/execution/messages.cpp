#include "execution/messages.hpp"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/asserts.h>

namespace datasched {

namespace {
// Resolved once per simulation: a by-name lookup (string hash + map) on each of the
// ~250,000 sends of a 50k-job run cost ~2 % of the engine's CPU.
simgrid::s4u::Mailbox* g_server_mailbox = nullptr;

simgrid::s4u::Mailbox* server_mailbox()
{
  xbt_assert(g_server_mailbox, "bind_server_mailbox() was not called");
  return g_server_mailbox;
}
} // namespace

simgrid::s4u::Mailbox* bind_server_mailbox()
{
  g_server_mailbox = simgrid::s4u::Mailbox::by_name("server");
  return g_server_mailbox;
}

void send_to_server(Message* message)
{
  server_mailbox()->put(message, 1);
}

void send_to_server_detached(Message* message)
{
  // Deleted by the server on receipt, or here if the transfer fails.
  server_mailbox()->put_init(message, 1)->detach([](void* m) { delete static_cast<Message*>(m); });
}

} // namespace datasched
