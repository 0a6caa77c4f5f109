#pragma once
// The engine as a library (libdatasched-sim.so), for decision processes that run in
// the engine's process: datasched's Python policies load it with ctypes and pass a
// callback (datasched/policy/inprocess.py). The protocol is unchanged, Batsim 4's
// JSON messages, but a decision round is a function call instead of a ZeroMQ round
// trip between two processes. One simulation per process (SimGrid's engine is global).
#include "transport/callback_channel.hpp"

extern "C" {
/// Same command line and exit codes as datasched-sim (argv[0] is the program name),
/// except that `decide` answers every decision round (-s/--socket-endpoint is unused).
/// An error that ends the run (a bad input or decision, a failed `decide`, a deadlock)
/// does not exit the process: the actors are stopped, partial outputs removed, and
/// the error's exit status returned; datasched_sim_last_error() then gives its
/// message, which is not printed. (Command-line errors are printed by the parser, as
/// datasched-sim does. SimGrid's own aborts still end the process: fatal.hpp.)
__attribute__((visibility("default"))) int datasched_sim_run(int argc, char** argv, datasched_decide_fn decide,
                                                             void* user);

/// The one-line message of the error that ended the last datasched_sim_run ("" after
/// a successful run), without datasched-sim's "datasched-sim: error: " prefix. Valid
/// until the next call of datasched_sim_run.
__attribute__((visibility("default"))) const char* datasched_sim_last_error(void);
}
