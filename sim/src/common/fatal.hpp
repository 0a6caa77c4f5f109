#pragma once
// Error handling shared by the whole engine.
//
// Input problems found by code that is testable in isolation (bad files, bad options)
// are thrown as InputError. Every other error that ends a run is an EngineError: one
// line of message plus the exit status, thrown by fatal() where the error is found.
// Nothing exits the process: the engine is also a library (embed.hpp) whose host
// process (Python, a unit test) must survive a failed simulation.
//
// Why errors are caught at each actor's boundary and not left to unwind:
//  - An exception escaping an actor's code is not caught by SimGrid 3.32 (its context
//    wrapper only logs simgrid::Exception and rethrows): it reaches the bottom of the
//    actor's stack and ends in std::terminate, i.e. abort().
//  - SimGrid allows one Engine per process and keeps running while actors live.
// So every actor body runs inside run_actor_guarded(): an EngineError (or InputError,
// or any std::exception) leaving it is recorded (the first one wins: it is the one a
// process that exited at once would have reported) and stops the simulation with
// SimGrid's public API: Actor::kill_all() kills every other actor (they unwind with
// SimGrid's ForcefulKillException, which is not a std::exception and is let through),
// the guarded actor returns, and Engine::run() comes back once the activities the
// killed actors started have been cancelled. The caller of Engine::run() then calls
// throw_recorded_engine_error(), and the top level (main, the library entry point)
// reports it: main prints "datasched-sim: error: <message>" and exits with its status
// as before; the library returns the status and keeps the message for its caller.
// Callbacks that run in SimGrid's kernel (on_deadlock) record the error instead of
// throwing, since SimGrid kills the remaining actors itself right after them.
//
// An EngineError that escapes an actor anyway (an actor created without the guard) is
// caught by a terminate handler (install_engine_error_terminate_handler): it prints
// the line, runs the cleanup and exits with the status, as fatal() did before. SimGrid's
// own aborts (xbt_die, failed asserts) still go to install_abort_handler's handler:
// they cannot be recovered from, even in the library.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/one_line.hpp"

namespace datasched {

/// The message is stored on one line (one_line()): it quotes what the user wrote, and a
/// NUL there would otherwise end what() early, cutting the message at the culprit.
class InputError : public std::runtime_error {
public:
  explicit InputError(const std::string& message) : std::runtime_error(one_line(message)) {}
  explicit InputError(const char* message) : InputError(std::string(message)) {}
};

/// An error that ends the run: `what()` is the one-line message (without the
/// "datasched-sim: error: " prefix), `code()` the process exit status.
class EngineError : public std::runtime_error {
public:
  explicit EngineError(const std::string& message, int code = 1) : std::runtime_error(one_line(message)), code_(code) {}
  int code() const { return code_; }

private:
  int code_;
};

/// Throws EngineError(message, code): the error ends the run (see above).
[[noreturn]] void fatal(const std::string& message, int code = 1);

/// Registers the callback that deletes partial outputs when a run fails; the top
/// level (report_engine_error) runs it, so nothing half-written looks complete.
void set_fatal_cleanup(std::function<void()> cleanup);

/// Runs `body` as an actor's code: an error leaving it is recorded (the first one of
/// the run wins) and every other actor is killed, which ends Engine::run(). SimGrid's
/// ForcefulKillException (this actor being killed) passes through.
///
/// The executable (main) asks for exit_on_actor_error(true): there the error is reported
/// and the process ends at once, as fatal() always did, without killing actors. The
/// library must kill them (its caller gets the error back), and SimGrid 3.32 cannot kill
/// an actor blocked in Exec::wait_any_for on its own activities (a job worker in a
/// phase): the kill cancels them, and their completion, posted at the next model update,
/// answers the dead actor's wait and schedules it again ("The Impossible Did Happen", an
/// abort). So before killing, the first failing actor runs the hook of
/// set_before_kill_all, which cancels those activities first, as a KILL_JOB does.
void run_actor_guarded(const std::function<void()>& body);

/// Registers what the first failing actor does before it kills every actor (library
/// mode, see run_actor_guarded): the simulation cancels the activities its actors wait
/// on. An empty function clears it (a run clears its own when it returns).
void set_before_kill_all(std::function<void()> hook);

/// Whether an error in an actor ends the process at once (see run_actor_guarded).
void exit_on_actor_error(bool enabled);

/// Records `error` as the run's error unless one is already recorded (for callbacks
/// that run in SimGrid's kernel, where SimGrid stops the actors itself).
void record_engine_error(const EngineError& error);

/// After Engine::run(): throws the recorded error, if any (and forgets it).
void throw_recorded_engine_error();

/// Whether an error has been recorded during the current run.
bool engine_error_recorded();

/// The top level's handling of a failed run: runs the cleanup, then prints
/// "datasched-sim: error: <message>" on stderr if `print`; returns the exit status.
int report_engine_error(const EngineError& error, bool print = true);

/// Turns an EngineError that escaped an actor's guard (std::terminate) into the one
/// line and its exit status; any other exception goes to SimGrid's handler. Installed
/// after the SimGrid engine exists (SimGrid installs its own handler then).
void install_engine_error_terminate_handler();

/// Turns an abort() inside SimGrid (e.g. a failed assertion in its solver) into one clear
/// message naming the probable cause, removes `outputs` (and their .tmp), exits 1.
/// Only async-signal-safe calls run in the handler, so everything is prepared here.
void install_abort_handler(const std::string& message, const std::vector<std::string>& outputs);

} // namespace datasched
