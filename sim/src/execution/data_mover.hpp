#pragma once
// Data movers (seed 001 section 3.3): the decision process asks the engine to copy a
// named data item (model/data_registry.hpp) onto node NVMs or central storage while
// jobs run, with the datasched extension event DATASCHED_STAGE; the copy shares the
// network and devices like any flow (one SimGrid activity), and the engine answers
// DATASCHED_STAGE_DONE when it is done. Protocol and semantics: workloads/README.md
// ("Data movers").
//
//   request                          flows (resource ids)                      out_data.csv
//   to central (stage-out)           Y-nvm -> io-J for every NVM part           stage_out
//   to nodes, item on central only   io-J -> X-nvm (striped over the servers)   stage_in
//   to nodes, item on NVM            Y-nvm -> X and X -> X-nvm (one activity:   stage_move
//                                    pipelined, at the slower of the two)
//
// A copy to nodes stripes the item evenly over their NVMs and replaces its previous NVM
// placement (a move); the central copy, if any, stays. Room on the targets is made as
// for a write (LRU eviction, dirty victims written back first, by the mover). The item
// is pinned while it moves.
#include <functional>
#include <string>
#include <vector>

#include "execution/phase_plan.hpp"
#include "model/data_registry.hpp"
#include "protocol/reader.hpp"

namespace datasched {

struct Context;

struct PlannedStage {
  DataStage request;
  std::string event; ///< stage_in, stage_out or stage_move
  double bytes = 0;  ///< bytes transferred
  std::vector<Eviction> evictions;
  std::vector<ActivitySpec> writeback;
  std::vector<ActivitySpec> transfer;
  std::vector<ItemPart> parts; ///< the new NVM placement (to nodes)
  std::vector<int> locations;  ///< where the copy goes (out_data.csv)
};

/// Checks the request and plans it, updating the registry (pin, room on the targets).
/// Throws InputError naming the stage and the item.
PlannedStage plan_data_stage(const DataStage& request, DataRegistry& registry, const StorageEndpoints& endpoints,
                             int nb_compute, const std::function<std::string(int)>& name_of);

/// Runs a planned stage (write-back of its victims, then the copy), updates the registry
/// and out_data.csv, and sends StageDone to the server.
void data_mover_actor(Context* context, PlannedStage stage);

} // namespace datasched
