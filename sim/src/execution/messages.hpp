#pragma once
// Messages between the engine's actors. Like Batsim, every message is a simulated
// 1-byte transfer to the server's mailbox on the master host, so control traffic
// costs what the platform says it costs (and conforming dates follow from it).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "protocol/reader.hpp"

namespace datasched {

struct Job;

enum class MessageType {
  SubmitterHello,
  SubmitterBye,
  JobSubmitted,
  JobCompleted,
  Decision,     ///< one decision of the decision process, applied at its timestamp
  SchedReady,   ///< the decision round is over
  WaitingDone,  ///< a CALL_ME_LATER date is reached
  KillingDone,  ///< a KILL_JOB decision has been carried out
  MachineEvent, ///< an external machine_available/unavailable event
  Switched,     ///< a host reached the pstate of a SET_RESOURCE_STATE (-E)
  StageDone,    ///< a data mover finished a DATASCHED_STAGE (execution/data_mover.hpp)
  ItemsEvicted  ///< a job's phase evicted data items (--datasched-item-evictions only)
};

struct Message {
  MessageType type = MessageType::SchedReady;
  std::string submitter;
  std::vector<Job*> jobs;              ///< JobSubmitted, JobCompleted (one), KillingDone (killed ones)
  std::vector<std::string> job_ids;    ///< KillingDone: every id of the KILL_JOB decision
  nlohmann::json progress;             ///< KillingDone: job_progress
  Decision decision;                   ///< Decision
  std::string event_type;              ///< MachineEvent
  std::string resources;               ///< MachineEvent
  nlohmann::json event;                ///< MachineEvent of an unknown type, forwarded as is
  int machine_id = -1;                 ///< Switched
  int pstate     = -1;                 ///< Switched
  nlohmann::json stage;                ///< StageDone: the DATASCHED_STAGE_DONE event's data
  std::vector<nlohmann::json> evicted; ///< ItemsEvicted: DATASCHED_ITEM_EVICTED data, in eviction order
};

/// A new message of `type` with every other field empty (the caller fills what it needs).
inline Message* new_message(MessageType type, std::string submitter = {})
{
  auto* m      = new Message{};
  m->type      = type;
  m->submitter = std::move(submitter);
  return m;
}

/// Creates the server's mailbox for the simulation about to run and returns it; the
/// send functions below use it (call once, after the SimGrid engine exists).
simgrid::s4u::Mailbox* bind_server_mailbox();

/// Sends `message` to the server (blocking, 1 simulated byte). Takes ownership.
void send_to_server(Message* message);
/// Same transfer, but the sender does not wait for it to complete. Takes ownership.
void send_to_server_detached(Message* message);

} // namespace datasched
