// Sharding plans: how a model's layers and tensors are spread over devices.
// A plan is a list of pipeline stages; each stage is a tensor-parallel group
// holding a contiguous range of layers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/plan/devices.h"
#include "src/plan/footprint.h"
#include "src/plan/model_spec.h"
#include "src/plan/quant.h"

namespace hwaccel::plan {

struct Stage {
  std::vector<int> devices;  // indexes into DeviceSet::devices; size = tensor-parallel degree
  int first_layer = 0;
  int layer_count = 0;
  bool embedding = false;  // holds the token embedding table
  bool head = false;       // holds the output projection
};

struct Shard {
  int device = 0;  // index into DeviceSet::devices
  int stage = 0;
  int tp_rank = 0;
  int first_layer = 0;
  int layer_count = 0;
  double weights = 0;
  double kv = 0;
  double other = 0;  // activations + runtime overhead
  // Of `other`, llama.cpp's compute buffer (src/plan/peak_memory.h); 0 for
  // another runtime.
  double compute_buffer = 0;
  double total() const { return weights + kv + other; }
  double capacity = 0;
  // The peak of an engine build on this device before it serves (TensorRT-LLM;
  // src/plan/peak_memory.h); 0: the runtime builds nothing.
  double build = 0;
  bool runtime_fits() const { return total() <= capacity; }
  bool build_fits() const { return build <= capacity; }
  bool fits() const { return runtime_fits() && build_fits(); }
};

enum class PlanKind { single, tensor, pipeline, tensor_pipeline, offload };
std::string to_string(PlanKind kind);

struct Plan {
  PlanKind kind = PlanKind::single;
  int tp = 1;
  std::vector<Stage> stages;
  std::vector<Shard> shards;  // stage order, then rank
  std::string link;           // what the tensor-parallel group talks over
  double link_bytes_s = 0;    // per direction, per device
  std::string pp_link;        // between pipeline stages
  double pp_link_bytes_s = 0;
  bool fits() const;
  int device_count() const { return static_cast<int>(shards.size()); }
  std::string label(const DeviceSet& set) const;  // "tensor x8 cuda:0-7"
};

// cuda:0,cuda:1,cuda:2,cpu:0 -> cuda:0-2,cpu:0
std::string compress_labels(const std::vector<std::string>& labels);

// Everything a plan's bytes depend on, computed once.
struct ModelCost {
  ModelSpec spec;
  ParamCounts params;
  QuantLevel quant;
  WeightBytes weights;
  Workload workload;
  double kv_element = 2;
  Footprint footprint;
};
ModelCost model_cost(const ModelSpec& spec, const QuantLevel& quant, const Workload& workload);

// Fills `shards` from `stages` (bytes per device, capacity, fit).
void fill_shards(Plan& plan, const ModelCost& cost, const DeviceSet& set);

// The activation bytes a stage's device holds: the footprint's, or for
// llama.cpp its compute buffer there (the logits only where the stage holds
// the output layer, the mask four times over where the layers are split over
// several GPUs).
double stage_activations(const ModelCost& cost, const Stage& stage, bool gpu_pipeline);
// Whether llama.cpp would run these stages as a pipeline over GPUs: more than
// one stage, none of them on the CPU (an offload to host memory is not one).
bool gpu_pipeline(const std::vector<Stage>& stages, const DeviceSet& set);

// Splits `layers` over stages in proportion to the room each has left after
// its fixed bytes, so every stage ends up about equally full.
std::vector<int> balance_layers(const std::vector<double>& room, double bytes_per_layer,
                                int layers);

// Groups of devices of one SKU in which every pair has a fast link (NVLink,
// xGMI), or, when no link was detected at all, the SKU's fabric is one
// (assumed, and said so in `assumed`).
struct Domain {
  std::vector<int> devices;
  std::string fabric;
  int lanes = 0;  // NVLink links per pair (0: unknown)
  double bytes_s = 0;
  bool assumed = false;
};
std::vector<Domain> fast_domains(const DeviceSet& set);
// The device-to-device fabrics tensor parallelism runs over (NVLink, xGMI, TPU
// ICI, NeuronLink, Gaudi's on-chip RoCE, Xe Link); PCIe is not one.
bool scale_up_fabric(const std::string& fabric);

// Every candidate plan for these devices (fits or not), in a stable order.
std::vector<Plan> candidate_plans(const ModelCost& cost, const DeviceSet& set);

}  // namespace hwaccel::plan
