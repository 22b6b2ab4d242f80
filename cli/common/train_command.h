// `hwaccel train`: the memory a fine-tuning method needs per device, and
// whether the devices found (or what-if ones) hold it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/common/plan_command.h"

namespace hwaccel::cli {

struct TrainArgs {
  PlanArgs plan;  // model, devices, what-if, --json
  std::string method = "full";
  std::string teacher;
  int zero = 0;
  int gpus = 0;  // 0: every accelerator of the first kind
  int seq = 4096;
  int micro_batch = 1;
  bool checkpointing = false;
  int lora_rank = 16;
};

void add_train_flags(CLI::App& command, TrainArgs& args);
int run_train(const TrainArgs& args);

}  // namespace hwaccel::cli
