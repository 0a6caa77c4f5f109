#include "execution/messages.hpp"

namespace datasched {

void send_to_server(Message* message)
{
  simgrid::s4u::Mailbox::by_name("server")->put(message, 1);
}

} // namespace datasched
