// What an Apple silicon Mac shows (macOS, no /proc or /sys): `system_profiler
// SPDisplaysDataType -json` with the SoC's GPU (name, cores, Metal family) and
// its built-in or attached display, and sysctl's hw.memsize, the CPU brand string
// and iogpu.wired_limit_mb (0: not raised), in the layout of the fixtures
// mac-studio-m2-ultra and macbook-pro-m3-max (their headers cite the captures).
#include "sim/synth_parts.h"

namespace hwaccel::sim::detail {
namespace {

ToolEntry answer(std::vector<std::string> argv, std::string out) {
  ToolEntry t;
  t.argv = std::move(argv);
  t.run.out = std::move(out);
  t.run.ms = 30;
  return t;
}

// One GPU block; the display is the Studio Display a desktop Mac drives (a laptop's
// built-in panel differs only in the keys the probe does not read).
std::string sp_displays(const Sku& sku) {
  const std::string name(sku.name);
  return "{\n"
         "  \"SPDisplaysDataType\" : [\n"
         "    {\n"
         "      \"_name\" : \"" +
         name +
         "\",\n"
         "      \"spdisplays_mtlgpufamilysupport\" : \"spdisplays_metal3\",\n"
         "      \"spdisplays_ndrvs\" : [\n"
         "        {\n"
         "          \"_name\" : \"Studio Display\",\n"
         "          \"_spdisplays_display-product-id\" : \"1114\",\n"
         "          \"_spdisplays_display-vendor-id\" : \"610\",\n"
         "          \"_spdisplays_displayID\" : \"2\",\n"
         "          \"_spdisplays_pixels\" : \"5120 x 2880\",\n"
         "          \"_spdisplays_resolution\" : \"2560 x 1440 @ 60.00Hz\",\n"
         "          \"spdisplays_main\" : \"spdisplays_yes\",\n"
         "          \"spdisplays_mirror\" : \"spdisplays_off\",\n"
         "          \"spdisplays_online\" : \"spdisplays_yes\",\n"
         "          \"spdisplays_pixelresolution\" : \"spdisplays_5120x2880Retina\"\n"
         "        }\n"
         "      ],\n"
         "      \"spdisplays_vendor\" : \"sppci_vendor_Apple\",\n"
         "      \"sppci_bus\" : \"spdisplays_builtin\",\n"
         "      \"sppci_cores\" : \"" +
         std::to_string(sku.gpu_cores) +
         "\",\n"
         "      \"sppci_device_type\" : \"spdisplays_gpu\",\n"
         "      \"sppci_model\" : \"" +
         name +
         "\"\n"
         "    }\n"
         "  ]\n"
         "}\n";
}

}  // namespace

void add_apple(const Plan& plan, Snapshot& s) {
  const HostSpec& spec = *plan.spec;
  const std::vector<std::string> profiler = {"system_profiler", "SPDisplaysDataType", "-json"};
  if (plan.apple.empty()) {
    // An Intel Mac or an empty spec: nothing to say about an Apple GPU.
    s.tools[profiler] = answer(profiler, "{\n  \"SPDisplaysDataType\" : [\n  ]\n}\n");
  } else {
    s.tools[profiler] = answer(profiler, sp_displays(*plan.apple.front().sku));
  }
  auto sysctl = [&](const char* name, std::string value) {
    std::vector<std::string> argv = {"sysctl", "-n", name};
    s.tools[argv] = answer(argv, std::move(value) + "\n");
  };
  sysctl("hw.memsize", std::to_string(spec.memory.total_kb * 1024));
  sysctl("machdep.cpu.brand_string", spec.cpu.model.empty() && !plan.apple.empty()
                                         ? std::string(plan.apple[0].sku->name)
                                         : spec.cpu.model);
  sysctl("iogpu.wired_limit_mb", "0");
}

}  // namespace hwaccel::sim::detail
