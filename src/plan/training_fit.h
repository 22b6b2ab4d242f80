// What would make a training run fit when it does not: each change alone
// (checkpointing, a ZeRO stage, micro-batch 1, QLoRA, a shorter sequence),
// then checkpointing with each, with the per-device total of each.
#pragma once

#include <string>
#include <vector>

#include "src/plan/training.h"

namespace hwaccel::plan {

struct TrainAlternative {
  std::string change;  // "activation checkpointing", "seq 2048"
  double total = 0;    // per device
  bool fits = false;
};

// Those that fit, smallest change first (a single change before a pair).
std::vector<TrainAlternative> training_alternatives(const TrainRequest& request, double capacity);

}  // namespace hwaccel::plan
