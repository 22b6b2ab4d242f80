// A small kernel tree in memory for the unit tests: one device per case,
// classes base <- derived, and sources the test writes.
#pragma once

#include <map>
#include <string>

#include "src/kernels/tree.h"

namespace hwaccel::kernels::testing {

inline std::string device_toml(const std::string& id, const std::string& cls,
                               const std::string& instructions, const std::string& peaks,
                               const std::string& native) {
  return "[[sku]]\nid = \"" + id + "\"\nname = \"" + id +
         "\"\nvendor = \"NVIDIA\"\nfamily = \"T\"\ntype = \"gpu\"\nmatch = []\npci = []\n"
         "memory_gb = 80\nmemory_type = \"HBM3\"\nusable_fraction = 0.9\nbandwidth_gbs = 3350\n"
         "peak_tflops = { " +
         peaks + " }\nnative = [" + native +
         "]\ntarget = \"sm_90\"\n"
         "compute_units = 132\nperf_class = \"dc\"\nfabric = \"none\"\nclass = \"" +
         cls + "\"\ninstructions = [" + instructions +
         "]\nsources = { memory_gb = \"t\", bandwidth_gbs = \"t\", peak_tflops = \"t\", "
         "compute_units = \"t\", usable_fraction = \"t\" }\n";
}

inline std::map<std::string, std::string> tiny_files() {
  std::map<std::string, std::string> f;
  f["DEVICES.toml"] =
      "format = \"hwaccel-devices/1\"\n"
      "[perf_class.dc]\ndecode_efficiency = 0.5\nprefill_efficiency = 0.3\nsource = \"t\"\n" +
      device_toml("hopper", "derived", "\"mma_sync\", \"mma_sync_fp8\", \"wgmma\"",
                  "bf16 = 989, fp8 = 1979, int8 = 1979", "\"bf16\", \"fp8\", \"int8\"") +
      device_toml("ampere", "base", "\"mma_sync\"", "bf16 = 312, int8 = 624",
                  "\"bf16\", \"int8\"") +
      "[[guard]]\nmacro = \"HAS_WGMMA\"\ninstruction = \"wgmma\"\n";
  f["base/HARDWARE.toml"] =
      "class = \"base\"\ntarget = \"sm_80\"\nflags = [\"-DARCH=800\", \"-DSPLIT\"]\n"
      "modules = [\"k/a.cu\", \"k/b.cu\"]\n[defaults]\nbackend = \"x\"\nsmem = \"163\"\n"
      "[tensor_core_policy]\nops = [\"gemm\"]\nexempt = { lm_head = \"gemv\" }\n";
  f["derived/HARDWARE.toml"] =
      "class = \"derived\"\ninherits = \"base\"\ntarget = \"sm_90a\"\n"
      "flags = [\"-DARCH=900\", \"-USPLIT\"]\nmodules = [\"k/c.cu\"]\n"
      "remove_modules = [\"k/b.cu\"]\n[expected_absent]\nlisted = \"not built here\"\n"
      "[defaults]\nbackend = \"y\"\nsmem = \"163\"\n";
  f["k/a.cu"] =
      "__global__ void plain(int) {}\n"
      "#ifdef HAS_WGMMA\n__global__ void needs_wgmma(int) {}\n#else\n"
      "__global__ void without_wgmma(int) {}\n#endif\n"
      "#if defined(SPLIT) && ARCH >= 800\n__global__ void split(int) {}\n#endif\n"
      "__global__ void listed(int) {}\n";
  f["k/b.cu"] = "__global__ void removed(int) {}\n";
  f["k/c.cu"] = "__global__ void derived_only(int) {}\n";
  f["KERNEL_FAMILIES.toml"] =
      "format = \"hwaccel-kernel-families/1\"\n"
      "[[family]]\nid = \"f\"\nop = \"gemm\"\ntensor_cores = true\n"
      "kernels = [\"plain\", \"needs_wgmma\", \"without_wgmma\", \"split\", \"listed\", "
      "\"removed\", \"derived_only\"]\n";
  f["FUSIONS.toml"] =
      "format = \"hwaccel-fusions/1\"\n[[rule]]\nid = \"r\"\nclass = \"base\"\nops = [\"gemm\"]\n"
      "format = \"bf16\"\nkernels = [\"plain\"]\n";
  return f;
}

inline KernelTree tiny_tree() {
  auto r = parse_tree(tiny_files(), "tiny");
  if (!r.tree) throw std::runtime_error(r.error);
  return *r.tree;
}

}  // namespace hwaccel::kernels::testing
