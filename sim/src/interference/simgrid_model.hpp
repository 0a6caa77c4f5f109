#pragma once
// Which SimGrid models an interference run uses, and what that changes in how the HPL-like
// job is expressed. The choice is the experiment's ("simgrid_model", README.md): both
// models leave every sharing decision to SimGrid; they differ in cost.
//
//   "ptask_L07"   host/model:ptask_L07 (the engine's model elsewhere): a node's HPL share
//                 is one parallel Exec over its cores. L07 re-solves and updates every
//                 action at every event (no lazy update), so a run costs about events x
//                 activities in flight.
//   "cas01_cm02"  the compound host model with SimGrid's lazy Cas01 CPU and CM02 network
//                 models: each rank is its own single-host Exec (one per core), transfers
//                 are point-to-point network actions (CM02's communicate, see
//                 transfer.hpp), and an event only updates the activities on the
//                 resources it touches.
#include <string>
#include <vector>

namespace datasched::interference {

enum class SimgridModel {
  PtaskL07,  ///< "ptask_L07"
  Cas01Cm02, ///< "cas01_cm02"
};

/// The experiment's name of `model` ("ptask_L07", "cas01_cm02").
std::string to_string(SimgridModel model);

/// SimGrid configuration items (without "--cfg=") that select `model` at start-up.
std::vector<std::string> simgrid_options(SimgridModel model);

} // namespace datasched::interference
