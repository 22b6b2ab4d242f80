// The pieces synthesize() puts together, one file per family (synth_*.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/sku_catalog.h"
#include "sim/spec.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim::detail {

// One accelerator of the spec with everything resolved.
struct Device {
  const Sku* sku = nullptr;
  const AcceleratorSpec* spec = nullptr;
  std::string address;  // "0000:1b:00.0"
  int numa = -1;        // -1: the kernel's "no affinity"
};

struct Plan {
  const HostSpec* spec = nullptr;
  std::vector<Device> nvidia;     // PCI order
  std::vector<Device> amd;        // PCI order
  std::vector<Device> tpu;        // PCI order
  std::vector<Device> gaudi;      // hl-smi's order: the spec's, not the bus's
  std::vector<Device> neuron;     // PCI order
  std::vector<Device> apple;      // the one SoC
  std::vector<Device> qualcomm;   // PCI order (qaic-util's QIDs)
  std::vector<Device> npu;        // Intel NPU and AMD XDNA, PCI order
  std::vector<Device> intel_gpu;  // PCI order
  std::uint64_t seed = 0;         // from the label and spec.seed
};

Plan make_plan(const HostSpec& spec);

// A stable pseudo-random 64-bit value from the plan's seed and a salt.
std::uint64_t mix(std::uint64_t seed, std::uint64_t salt);
// "0,1" style CPU list of one NUMA node (its cores and their SMT siblings).
std::string cpulist_of_node(const CpuSpec& cpu, int node);
std::string hex_id(std::uint32_t value, int digits);  // "0x10de"

void add_cpu_and_memory(const Plan& plan, Snapshot& s);
void add_nvidia(const Plan& plan, Snapshot& s);
void add_amd(const Plan& plan, Snapshot& s);
void add_tpu(const Plan& plan, Snapshot& s);
void add_gaudi(const Plan& plan, Snapshot& s);
void add_neuron(const Plan& plan, Snapshot& s);
void add_apple(const Plan& plan, Snapshot& s);
void add_qualcomm(const Plan& plan, Snapshot& s);
void add_npu(const Plan& plan, Snapshot& s);
void add_intel_gpu(const Plan& plan, Snapshot& s);
void add_vulkan(const Plan& plan, Snapshot& s);
void add_vm(const Plan& plan, Snapshot& s);

// The first free /sys/class/accel/accelN (TPU, NPU and Qualcomm drivers share the class).
int next_accel_index(const Snapshot& s);
// A tool run recorded as not installed.
ToolEntry not_found_tool(std::vector<std::string> argv);
// Whether the spec lets a tool be installed: listed in `tools`, or `tools` unset and
// `by_default`.
bool tool_installed(const HostSpec& spec, const std::string& tool, bool by_default);

}  // namespace hwaccel::sim::detail
