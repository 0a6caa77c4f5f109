#include "fatal.hpp"

#include <cstdio>
#include <cstdlib>

namespace datasched {

namespace {
std::function<void()>& cleanup_slot()
{
  static std::function<void()> cleanup;
  return cleanup;
}
} // namespace

void set_fatal_cleanup(std::function<void()> cleanup)
{
  cleanup_slot() = std::move(cleanup);
}

void fatal(const std::string& message, int code)
{
  std::fprintf(stderr, "datasched-sim: error: %s\n", message.c_str());
  std::fflush(stderr);
  if (auto& cleanup = cleanup_slot()) {
    try {
      cleanup();
    } catch (...) {
    }
  }
  std::fflush(stdout);
  std::_Exit(code);
}

} // namespace datasched
