#include "execution/data_mover.hpp"

#include <set>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>

#include "common/fatal.hpp"
#include "execution/context.hpp"
#include "execution/item_traffic.hpp"
#include "execution/messages.hpp"
#include "execution/ptask.hpp"

namespace datasched {

PlannedStage plan_data_stage(const DataStage& request, DataRegistry& registry, const StorageEndpoints& endpoints,
                             int nb_compute, const std::function<std::string(int)>& name_of)
{
  const std::string where = "DATASCHED_STAGE '" + request.stage_id + "': data item '" + request.item + "'";
  const DataItem* found   = registry.find(request.item);
  if (!found || !found->exists)
    throw InputError(where + " does not exist (no job wrote it yet and datasched_data does not declare it)");
  const DataItem item = *found; // a copy: the registry changes below
  PlannedStage out;
  out.request = request;
  if (registry.io_servers().empty() && (request.to_central || !item.on_nvm()))
    throw InputError(where + ": staging to or from central storage needs an I/O server (datasched_role=io_server)");
  if (request.to_central) {
    out.event = "stage_out";
    ActivityBuilder b(Tier::StageOut, TrafficClass::Storage);
    if (!item.on_central())
      for (const ItemPart& part : item.nvm_parts)
        for (const ItemPart& stripe : registry.central_stripes(part.bytes))
          b.add_bytes(part.location, stripe.location, stripe.bytes);
    if (!b.empty()) {
      out.transfer.push_back(b.build());
      out.bytes = item.size;
    }
    out.locations = registry.io_servers();
    registry.pin(request.item);
    return out;
  }
  std::set<int> seen;
  std::vector<int> targets;
  for (int node : request.to_nodes) {
    if (node < 0 || node >= nb_compute)
      throw InputError(where + ": target " + std::to_string(node) + " is not a compute node id (0-" +
                       std::to_string(nb_compute - 1) + ")");
    if (!seen.insert(node).second)
      throw InputError(where + ": target node " + std::to_string(node) + " is listed twice");
    const int nvm = endpoints.nvm_of(node);
    if (nvm < 0)
      throw InputError(where + ": target node " + std::to_string(node) + " has no NVM endpoint");
    targets.push_back(nvm);
  }
  const double share = item.size / static_cast<double>(targets.size());
  for (int nvm : targets) {
    for (Eviction& e : registry.reserve(nvm, share, request.item, name_of(nvm)))
      out.evictions.push_back(std::move(e));
    out.parts.push_back(ItemPart{nvm, share});
    out.locations.push_back(nvm);
  }
  ActivityBuilder b(item.on_nvm() ? Tier::RemoteNvm : Tier::StageIn, TrafficClass::Storage);
  out.event = item.on_nvm() ? "stage_move" : "stage_in";
  for (int nvm : targets) {
    const int node = endpoints.owner_of(nvm);
    if (!item.on_nvm()) {
      for (const ItemPart& part : item.central_parts)
        b.add_bytes(part.location, nvm, part.bytes / static_cast<double>(targets.size()));
      continue;
    }
    for (const ItemPart& part : item.nvm_parts) {
      if (part.location == nvm) // already there
        continue;
      const double bytes = part.bytes / static_cast<double>(targets.size());
      b.add_bytes(part.location, node, bytes); // Y-nvm -> X ...
      b.add_bytes(node, nvm, bytes);           // ... -> X-nvm, in the same activity
      out.bytes += bytes;
    }
  }
  if (!item.on_nvm())
    out.bytes = item.size;
  if (!b.empty())
    out.transfer.push_back(b.build());
  out.writeback = plan_writeback(out.evictions, registry);
  registry.pin(request.item);
  return out;
}

namespace {

void run_specs(Context* context, const std::vector<ActivitySpec>& specs, const std::string& stage_id)
{
  std::vector<simgrid::s4u::ExecPtr> running;
  for (const ActivitySpec& planned : specs) {
    ActivitySpec with_daemons;
    const ActivitySpec& spec = served_by(context->services.nodes.get(), planned, with_daemons);
    std::vector<simgrid::s4u::Host*> hosts;
    for (int id : spec.hosts)
      hosts.push_back(context->machines.at(id).host);
    if (std::string why = context->routes.problem(hosts, spec.bytes); !why.empty())
      fatal("DATASCHED_STAGE '" + stage_id + "': " + why);
    auto exec = init_ptask(hosts, spec.flops, spec.bytes);
    exec->start();
    context->traffic.started(exec, spec.traffic, hosts, spec.bytes);
    running.push_back(exec);
  }
  for (auto& exec : running) {
    exec->wait();
    context->traffic.ended(exec.get());
  }
}

} // namespace

void data_mover_actor(Context* context, PlannedStage stage)
{
  using simgrid::s4u::Engine;
  const double start    = Engine::get_clock();
  const std::string& id = stage.request.stage_id;
  run_specs(context, stage.writeback, id);
  PlannedItems evictions;
  evictions.evictions = stage.evictions;
  record_evictions(evictions, context->data_csv, id, start, Engine::get_clock());
  const double copy_start = Engine::get_clock();
  run_specs(context, stage.transfer, id);
  const double end       = Engine::get_clock();
  DataRegistry& registry = context->data;
  if (stage.request.to_central)
    registry.add_central_copy(stage.request.item, end);
  else
    registry.set_nvm_copy(stage.request.item, stage.parts, end);
  registry.unpin(stage.request.item);
  context->data_csv.add(copy_start, end, stage.request.item, stage.event, id, stage.bytes, stage.locations);
  auto* message  = new_message(MessageType::StageDone);
  message->stage = nlohmann::json{{"stage_id", id},
                                  {"item", stage.request.item},
                                  {"kind", stage.event},
                                  {"bytes", stage.bytes},
                                  {"start_time", start}};
  send_to_server(message);
}

} // namespace datasched
