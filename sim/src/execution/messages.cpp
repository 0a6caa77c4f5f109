#include "execution/messages.hpp"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace datasched {

namespace {
simgrid::s4u::Mailbox* server_mailbox()
{
  // Mailbox::by_name builds a string and searches the engine's map on every call; the
  // server's mailbox is looked up once per engine instead (one send per job event).
  static simgrid::s4u::Engine* engine       = nullptr;
  static simgrid::s4u::Mailbox* server_box = nullptr;
  if (engine != simgrid::s4u::Engine::get_instance()) {
    engine     = simgrid::s4u::Engine::get_instance();
    server_box = simgrid::s4u::Mailbox::by_name("server");
  }
  return server_box;
}
} // namespace

void send_to_server(Message* message) { server_mailbox()->put(message, 1); }

void send_to_server_detached(Message* message)
{
  // Deleted by the server on receipt, or here if the transfer fails.
  server_mailbox()->put_init(message, 1)->detach([](void* m) { delete static_cast<Message*>(m); });
}

} // namespace datasched
