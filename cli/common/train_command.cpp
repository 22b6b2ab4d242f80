#include "cli/common/train_command.h"

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/common/exit_codes.h"
#include "cli/common/root_tools_flag.h"
#include "src/plan/runtime.h"
#include "src/plan/training.h"
#include "src/plan/training_fit.h"
#include "src/report/table.h"

namespace hwaccel::cli {

void add_train_flags(CLI::App& cmd, TrainArgs& a) {
  cmd.add_option("--model", a.plan.model, "A built-in model name or path/config.json");
  cmd.add_option("--params", a.plan.params, "A bare parameter count (70B)");
  cmd.add_option("--method", a.method,
                 "full | lora | qlora | prefix | dpo | distill (default full)");
  cmd.add_option("--runtime", a.plan.runtime,
                 "mlx: price mlx-lm's trainer on Apple (full, lora, qlora; no ZeRO). The serving "
                 "runtimes (llama.cpp, vllm, sglang, trt-llm) do not train and are refused; "
                 "default: PyTorch + DeepSpeed ZeRO")
      ->check(CLI::IsMember(plan::runtime_names()));
  cmd.add_option("--teacher", a.teacher, "distill: the teacher model (name or config.json)");
  cmd.add_option("--zero", a.zero, "ZeRO stage 0-3 (default 0)")->check(CLI::Range(0, 3));
  cmd.add_option("--gpus", a.gpus,
                 "Data-parallel devices (default: every accelerator of the first kind)")
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--seq", a.seq, "Sequence length (default 4096)")->check(CLI::Range(1, 10000000));
  cmd.add_option("--micro-batch", a.micro_batch, "Sequences per device per step (default 1)")
      ->check(CLI::Range(1, 100000));
  cmd.add_flag("--checkpointing", a.checkpointing, "Activation checkpointing (full recomputation)");
  cmd.add_option("--lora-rank", a.lora_rank, "LoRA rank (default 16)")->check(CLI::Range(1, 65536));
  cmd.add_flag("--json", a.plan.json, "Print JSON");
  auto* host = cmd.add_option("--host", a.plan.host_path, "Plan on a snapshot FILE");
  auto* root = cmd.add_option("--root", a.plan.root, "Read files under DIR as if it were /")
                   ->check(CLI::ExistingDirectory);
  add_root_tools_flag(cmd, a.plan.root_tools, root);
  host->excludes(root);
  cmd.add_option("--reserve", a.plan.reserve, "Memory that must stay free per device");
  cmd.add_option("--devices", a.plan.devices_file, "A DEVICES.toml SKU catalogue");
  cmd.add_option("--on", a.plan.on, "Only these devices (cuda:0,cuda:1)");
  cmd.add_option("--add", a.plan.add, "What-if: add SKU[xN]");
  cmd.add_option("--remove", a.plan.remove, "What-if: leave out a device");
}

int run_train(const TrainArgs& a) {
  Loaded l = load_catalogue(a.plan.devices_file);
  if (l.exit != kExitOk) return l.exit;
  if (int rc = load_model(a.plan.model, a.plan.params, l); rc != kExitOk) return rc;
  auto method = plan::parse_train_method(a.method);
  if (!method) {
    std::cerr << "error: --method " << a.method
              << ": expected full, lora, qlora, prefix, dpo or distill\n";
    return kExitUsage;
  }
  plan::TrainRequest req;
  req.model = *l.spec;
  req.method = *method;
  if (*method == plan::TrainMethod::distill) {
    if (a.teacher.empty()) {
      std::cerr << "error: --method distill needs --teacher MODEL\n";
      return kExitUsage;
    }
    Loaded t;
    if (int rc = load_model(a.teacher, "", t); rc != kExitOk) return rc;
    req.teacher = *t.spec;
  }
  if (int rc = load_devices(a.plan, l); rc != kExitOk) return rc;
  // The devices: accelerators of the first kind (the CPU only when there is none).
  std::vector<const plan::PlanDevice*> devs;
  for (const auto& d : l.devices->devices) {
    if (d.cpu) continue;
    if (!devs.empty() && d.sku_id() != devs.front()->sku_id()) continue;
    devs.push_back(&d);
  }
  if (devs.empty())
    for (const auto& d : l.devices->devices) devs.push_back(&d);
  if (devs.empty()) {
    std::cerr << "error: no ready device to train on\n";
    return kExitUnsatisfied;
  }
  int n = a.gpus > 0 ? a.gpus : static_cast<int>(devs.size());
  req.zero = a.zero;
  req.devices = n;
  req.seq = a.seq;
  req.micro_batch = a.micro_batch;
  req.checkpointing = a.checkpointing;
  req.lora_rank = a.lora_rank;
  const plan::Sku* sku = devs.front()->sku;
  auto framework = plan::training_framework(a.plan.runtime, req,
                                            sku && sku->vendor == "Apple" && !devs.front()->cpu);
  if (framework.refused) {
    std::cerr << "error: " << *framework.refused << "\n";
    return kExitUsage;
  }
  auto t = plan::training_memory(req);
  double capacity = devs.front()->capacity;
  bool enough_devices = n <= static_cast<int>(devs.size());
  bool fits = t.total() <= capacity && enough_devices;
  std::vector<plan::TrainAlternative> alternatives;
  if (!fits && enough_devices) alternatives = plan::training_alternatives(req, capacity);
  if (a.plan.json) {
    nlohmann::json j{
        {"schema", "hwaccel-train/1"},
        {"model", req.model.name},
        {"method", plan::to_string(req.method)},
        {"framework", {{"name", framework.name}, {"assumptions", framework.assumptions}}},
        {"zero", req.zero},
        {"devices", n},
        {"device", devs.front()->label},
        {"seq", req.seq},
        {"micro_batch", req.micro_batch},
        {"checkpointing", req.checkpointing},
        {"trainable_params", std::llround(t.trainable_params)},
        {"per_device",
         {{"weights_bytes", std::llround(t.weights)},
          {"gradients_bytes", std::llround(t.gradients)},
          {"optimizer_bytes", std::llround(t.optimizer)},
          {"activations_bytes", std::llround(t.activations)},
          {"frozen_extra_bytes", std::llround(t.frozen_extra)},
          {"total_bytes", std::llround(t.total())}}},
        {"usable_bytes", std::llround(capacity)},
        {"fits", fits},
        {"notes", t.notes}};
    if (!fits && enough_devices) {
      nlohmann::json alt = nlohmann::json::array();
      for (const auto& x : alternatives)
        alt.push_back({{"change", x.change}, {"total_bytes", std::llround(x.total)}});
      j["would_fit"] = alt;
    }
    std::cout << j.dump(2) << "\n";
  } else {
    std::ostringstream o;
    o << "train: " << req.model.name << ", " << plan::to_string(req.method) << ", ZeRO " << req.zero
      << " over " << n << " device(s), seq " << req.seq << ", micro-batch " << req.micro_batch
      << (req.checkpointing ? ", checkpointing" : ", no checkpointing") << "\n";
    o << "framework: " << framework.name << " (" << framework.assumptions << ")\n";
    o << "trainable parameters: " << std::llround(t.trainable_params / 1e6) << " M\n\n";
    std::vector<std::vector<std::string>> rows{{"PER DEVICE", "BYTES"},
                                               {"weights", plan::gib(t.weights)},
                                               {"gradients", plan::gib(t.gradients)},
                                               {"optimizer", plan::gib(t.optimizer)},
                                               {"activations", plan::gib(t.activations)},
                                               {"reference/teacher", plan::gib(t.frozen_extra)},
                                               {"total", plan::gib(t.total())}};
    o << render_table(rows);
    for (const auto& note : t.notes) o << "  " << note << "\n";
    o << "\n"
      << devs.front()->label << " " << devs.front()->name << ": usable " << plan::gib(capacity)
      << " -> " << (fits ? "fits" : "does not fit");
    if (!enough_devices) o << " (asked for " << n << " devices, have " << devs.size() << ")";
    o << "\n";
    if (!fits && enough_devices) {
      if (alternatives.empty())
        o << "would fit: nothing of checkpointing, ZeRO, micro-batch 1, QLoRA or seq down to 512 "
             "(with checkpointing or alone)\n";
      for (const auto& x : alternatives)
        o << "would fit: " << x.change << " (" << plan::gib(x.total) << " per device)\n";
    }
    std::cout << o.str();
  }
  return fits ? kExitOk : kExitDoesNotFit;
}

}  // namespace hwaccel::cli
