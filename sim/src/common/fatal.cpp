#include "common/fatal.hpp"

#include "common/one_line.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>

#include <unistd.h>

#include <simgrid/s4u/Actor.hpp>

namespace datasched {

namespace {

std::function<void()>& cleanup_slot()
{
  static std::function<void()> cleanup;
  return cleanup;
}

std::function<void()>& before_kill_all_slot()
{
  static std::function<void()> hook;
  return hook;
}

/// The first error of the current run (actors run one at a time, in one OS thread).
std::unique_ptr<EngineError>& recorded_error()
{
  static std::unique_ptr<EngineError> error;
  return error;
}

void run_cleanup()
{
  if (auto& cleanup = cleanup_slot()) {
    try {
      cleanup();
    } catch (...) { // a failing cleanup must not hide the error being reported
    }
  }
}

} // namespace

void fatal(const std::string& message, int code)
{
  throw EngineError(message, code);
}

void set_fatal_cleanup(std::function<void()> cleanup)
{
  cleanup_slot() = std::move(cleanup);
}

void record_engine_error(const EngineError& error)
{
  if (!recorded_error())
    recorded_error() = std::make_unique<EngineError>(error);
}

bool engine_error_recorded()
{
  return recorded_error() != nullptr;
}

void throw_recorded_engine_error()
{
  if (auto error = std::move(recorded_error()))
    throw EngineError(*error);
}

namespace {
bool g_exit_on_actor_error = false;
} // namespace

void run_actor_guarded(const std::function<void()>& body)
{
  // The error is copied out of the handler before the actor yields to SimGrid (the
  // kill is a simcall): no actor switch happens while an exception is being handled.
  std::unique_ptr<EngineError> error;
  try {
    body();
    return;
  } catch (const EngineError& e) {
    error = std::make_unique<EngineError>(e);
  } catch (const InputError& e) {
    error = std::make_unique<EngineError>(e.what());
  } catch (const std::exception& e) { // a bug of ours or a SimGrid exception nobody expected
    error = std::make_unique<EngineError>(std::string("internal error in actor '") +
                                          simgrid::s4u::this_actor::get_cname() + "': " + e.what());
  }
  if (g_exit_on_actor_error) {
    const int code = report_engine_error(*error);
    std::fflush(stdout);
    std::_Exit(code);
  }
  const bool first = !engine_error_recorded();
  record_engine_error(*error);
  if (!first) // the others were killed by the first
    return;
  if (auto& hook = before_kill_all_slot()) {
    try {
      hook();
    } catch (...) { // the recorded error is the one to report
    }
  }
  simgrid::s4u::Actor::kill_all();
}

void set_before_kill_all(std::function<void()> hook)
{
  before_kill_all_slot() = std::move(hook);
}

void exit_on_actor_error(bool enabled)
{
  g_exit_on_actor_error = enabled;
}

int report_engine_error(const EngineError& error, bool print)
{
  run_cleanup();
  if (print) {
    std::fprintf(stderr, "datasched-sim: error: %s\n", one_line(error.what()).c_str());
    std::fflush(stderr);
  }
  return error.code();
}

namespace {

std::terminate_handler g_previous_terminate = nullptr;

void on_terminate()
{
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const EngineError& e) {
      const int code = report_engine_error(e);
      std::fflush(stdout);
      std::_Exit(code);
    } catch (...) {
    }
  }
  if (g_previous_terminate)
    g_previous_terminate();
  std::abort();
}

} // namespace

void install_engine_error_terminate_handler()
{
  std::terminate_handler previous = std::set_terminate(on_terminate);
  if (previous != on_terminate)
    g_previous_terminate = previous;
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
  g_abort_message = "datasched-sim: error: " + one_line(message) + "\n";
  g_abort_paths.clear();
  for (const auto& path : outputs) {
    g_abort_paths.push_back(path);
    g_abort_paths.push_back(path + ".tmp");
  }
  std::signal(SIGABRT, on_abort);
}

} // namespace datasched
