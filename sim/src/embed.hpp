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
/// Fatal errors exit the process, as they do in datasched-sim.
__attribute__((visibility("default"))) int datasched_sim_run(int argc, char** argv, datasched_decide_fn decide,
                                                             void* user);
}
