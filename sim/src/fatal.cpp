#include "fatal.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <unistd.h>

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

namespace {
std::string g_abort_message;
std::vector<std::string> g_abort_paths;

extern "C" void on_abort(int)
{
  (void)!write(STDERR_FILENO, g_abort_message.data(), g_abort_message.size());
  for (const auto& path : g_abort_paths)
    unlink(path.c_str());
  _exit(1);
}
} // namespace

void install_abort_handler(const std::string& message, const std::vector<std::string>& outputs)
{
  g_abort_message = "datasched-sim: error: " + message + "\n";
  g_abort_paths.clear();
  for (const auto& path : outputs) {
    g_abort_paths.push_back(path);
    g_abort_paths.push_back(path + ".tmp");
  }
  std::signal(SIGABRT, on_abort);
}

} // namespace datasched
