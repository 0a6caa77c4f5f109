#pragma once
// Error handling shared by the whole engine.
//
// Input problems (bad files, bad decisions) are thrown as InputError where the code is
// testable in isolation; once the simulation runs, actors call fatal(), which prints
// one clear message, removes any partial output so that nothing half-written looks
// complete, and exits non-zero without unwinding SimGrid's actor stacks.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace datasched {

class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Registers the callback that deletes partial outputs before a fatal exit.
void set_fatal_cleanup(std::function<void()> cleanup);

/// Prints "datasched-sim: error: <message>", runs the cleanup, exits with `code`.
[[noreturn]] void fatal(const std::string& message, int code = 1);

/// Turns an abort() inside SimGrid (e.g. its BMF solver giving up) into one clear
/// message naming the probable cause, removes `outputs` (and their .tmp), exits 1.
/// Only async-signal-safe calls run in the handler, so everything is prepared here.
void install_abort_handler(const std::string& message, const std::vector<std::string>& outputs);

} // namespace datasched
