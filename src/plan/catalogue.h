// The SKU catalogue (DEVICES.toml, format hwaccel-devices/1): what each kind of
// accelerator can do, with a source for every number. Parsed from text (the
// caller reads the file through the Host); no I/O here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/entry.h"

namespace hwaccel::plan {

// Numeric formats a device may run natively, in the catalogue's spelling.
inline const std::vector<std::string>& known_formats() {
  static const std::vector<std::string> formats{"fp32", "bf16", "fp16", "fp8", "int8", "fp4"};
  return formats;
}

// Tensor-core and copy instruction kinds a kernel tree's DEVICES.toml names
// (docs/kernel-tree.md): which PTX instruction families a device executes.
inline const std::vector<std::string>& known_instructions() {
  static const std::vector<std::string> kinds{"cp_async", "mma_sync", "mma_sync_fp8",   "wgmma",
                                              "tma",      "tcgen05",  "fp4_block_scale"};
  return kinds;
}

struct PerfClass {
  std::string name;
  double decode_efficiency = 0.5;           // share of memory bandwidth reached at decode
  double prefill_efficiency = 0.3;          // share of the dense peak reached at prefill
  double decode_overhead_us_per_layer = 0;  // fixed cost per layer per token (launches)
  std::string source;
};

// One runtime on one perf class: decode = per_token + layers x per_layer +
// bytes / (bandwidth x decode_efficiency); prefill = FLOPs / (peak of the
// activation format x prefill_efficiency) + bytes / bandwidth.
struct RuntimeProfile {
  std::string runtime;     // "llama.cpp"
  std::string perf_class;  // "apple"
  double decode_efficiency = 0.5;
  double prefill_efficiency = 0.3;
  double per_token_us = 0;  // fixed per decode step (launches, sampling, scheduler)
  double per_layer_us = 0;  // fixed per layer per step
  // Fixed per MoE layer per decode step on top of per_layer_us: the router's
  // top-k, the token permutation and the fused-MoE kernel launches (vLLM's
  // fused_moe, Marlin's MoE on Ampere). Refitted only where the catalogue
  // gives it (moe_layer_fitted), on the profile's MoE rows alone.
  double moe_layer_us = 0;
  bool moe_layer_fitted = false;
  // Fixed per prefill (the request's one step: launches, scheduling, the
  // first token's sampling), paid once however long the prompt.
  double prefill_fixed_us = 0;
  // Whether the catalogue gives prefill_fixed_us: only then is it refitted
  // (first-token latencies through an engine step, TensorRT-LLM; llama-bench's
  // pp rows time the prompt alone, and a fixed cost fitted there was worse).
  bool prefill_fixed_fitted = false;
  // Share of an 8-bit activation format's peak (fp8, int8) at prefill, where
  // the rows show it differs from the 16-bit share; 0: prefill_efficiency.
  double prefill_efficiency_8bit = 0;
  // The format prefill GEMMs run in: a format name, or "weights" (the level's own).
  std::string activation = "weights";
  std::string source;
  std::vector<std::string> rows;  // calibration rows (data/calibration.toml) it was fitted on
  std::string location;           // FILE:LINE:COL
};

struct Sku {
  std::string id;  // "h100-sxm"
  std::string name;
  std::string vendor;
  std::string family;
  std::string type;                                          // gpu | npu | tpu | cpu
  std::vector<std::string> match;                            // substrings of detected names
  std::vector<std::pair<std::uint16_t, std::uint16_t>> pci;  // vendor, device
  double memory_bytes = 0;  // 0 for CPUs: host memory comes from detection
  std::string memory_type;
  bool unified = false;
  double usable_fraction = 0.9;
  double bandwidth_bytes_s = 0;
  std::map<std::string, double> peak_flops;  // format -> FLOP/s, dense
  std::vector<std::string> native;
  std::string target;  // sm_90, gfx942
  int compute_units = 0;
  std::string perf_class;
  std::string fabric;            // nvlink | xgmi | pcie | ici | none ...
  double fabric_bytes_s = 0;     // per direction, per device
  double host_link_bytes_s = 0;  // to host memory, when special (NVLink-C2C)
  double tdp_watts = 0;          // board power; 0: not given
  // Market segment (datacenter | workstation | consumer | embedded); empty:
  // from the perf class (runtime.h sku_segment). Decides the runtime assumed.
  std::string segment;
  std::map<std::string, std::string> sources;  // field -> where the number comes from
  std::string location;                        // FILE:LINE:COL of the [[sku]]
  // Kernel trees only (docs/kernel-tree.md): the kernel class and the
  // instruction kinds the device executes natively.
  std::string kernel_class;
  std::vector<std::string> instructions;
  bool has_instruction(std::string_view kind) const;

  bool is_native(std::string_view format) const;
  double peak(std::string_view format) const;  // 0 when not native
};

// A kernel tree's [[guard]]: a source macro that stands for an instruction kind.
struct Guard {
  std::string macro;
  std::string instruction;
  std::string location;  // FILE:LINE:COL
};

struct Catalogue {
  std::string origin;  // "built-in" or the file name
  std::vector<Sku> skus;
  std::map<std::string, PerfClass> perf_classes;
  // runtime -> perf class -> profile ([runtime."llama.cpp".apple]).
  std::map<std::string, std::map<std::string, RuntimeProfile>> runtimes;
  std::vector<Guard> guards;  // sorted by macro

  const Sku* find(std::string_view id) const;
  const PerfClass* perf(const Sku& sku) const;
  // PCI id first (a unique hit, or the hit whose match string is in the name),
  // then the longest match string found in the name. nullptr: unknown device.
  const Sku* match(const Entry& entry) const;
  std::vector<std::string> ids() const;
};

struct CatalogueResult {
  std::optional<Catalogue> catalogue;
  std::string error;  // FILE:LINE:COL: key: what was expected
};

CatalogueResult parse_catalogue(std::string_view text, const std::string& file);

// The catalogue compiled into the binary (data/devices.toml).
std::string_view builtin_devices_toml();
std::string_view builtin_instances_toml();
const Catalogue& builtin_catalogue();

}  // namespace hwaccel::plan
