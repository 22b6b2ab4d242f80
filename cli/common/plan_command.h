// `hwaccel plan`: what a model needs and how to split it over the devices
// found (or a snapshot's, or what-if additions).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/plan/catalogue.h"
#include "src/plan/devices.h"
#include "src/plan/footprint.h"
#include "src/plan/model_spec.h"
#include "src/plan/quant.h"

namespace hwaccel::cli {

struct PlanArgs {
  bool json = false;
  std::string model;    // built-in name or path/config.json
  std::string params;   // --params 70B
  std::string runtime;  // --runtime llama.cpp|vllm|sglang|trt-llm|mlx (empty: assumed)
  std::string quant;    // empty: the model's published dtype
  std::string kv = "fp16";
  std::string flash_attn = "auto";    // --flash-attn on|off|auto (llama.cpp's -fa)
  double gpu_memory_utilization = 0;  // --gpu-memory-utilization F (vLLM's; 0: its default)
  int context = 4096;
  bool context_given = false;  // --context on the command line
  int prompt = 0;              // --prompt N (0: not given)
  int gen = 0;                 // --gen N (0: not given)
  int batch = 1;
  int decode_batch = 32;
  std::string host_path;
  std::string root;
  bool root_tools = false;  // --root-tools: under --root, run this machine's tools
  double timeout_s = 5.0;
  std::string reserve;
  std::string devices_file;  // --devices FILE: replaces the built-in catalogue
  std::string on;            // --on cuda:0,cuda:1
  std::vector<std::string> add;
  std::vector<std::string> remove;
  std::string svg;     // --svg FILE: the roofline picture
  bool force = false;  // --svg / --record-tree may replace an existing FILE
  // Kernel plans (cli/common/kernel_plan_command.*): --hardware ID --kernels DIR.
  std::string hardware;
  std::string kernels;
  std::string format = "report";
  std::string check;
  std::string record_tree;  // --record-tree FILE: the tree as read, into a snapshot
};

void add_plan_flags(CLI::App& command, PlanArgs& args);
// --context, --prompt, --gen into the workload; false (message printed) when
// --context cannot hold the prompt and the generation.
bool apply_lengths(const PlanArgs& args, plan::Workload& workload);
int run_plan(const PlanArgs& args);

// Shared with `train` and `cost`.
struct Loaded {
  int exit = 0;
  std::optional<plan::Catalogue> catalogue;
  std::optional<plan::ModelSpec> spec;
  std::optional<plan::QuantLevel> file_quant;  // a GGUF's own weights, exact
  std::optional<plan::DeviceSet> devices;
  std::string source;
  std::string reserve_text;
  double reserve_bytes = 0;
};
Loaded load_catalogue(const std::string& devices_file);
int load_model(const std::string& model, const std::string& params, Loaded& out);
int load_devices(const PlanArgs& args, Loaded& out);
// The weight format (--quant, else the model's own dtype) after checking --kv;
// nullptr with the error printed and `exit` set when either is unknown.
const plan::QuantLevel* requested_quant(const PlanArgs& args, const Loaded& loaded, int& exit);

}  // namespace hwaccel::cli
