#include "sim/sku_catalog.h"

#include <array>

namespace hwaccel::sim {
namespace {

// Sources:
//   [SKU]  ../shared/docs/sku-facts.md (memory as nvidia-smi prints it, compute capability).
//   [CAP]  ../shared/real-captures nvidia-smi captures (names, 0x2330 / 16C1, H100 81559 MiB).
//   [FIX]  fixtures/hosts/*.yaml, whose headers cite the public reports each value is from
//          (DGX H100 dgx052, DGX A100 user guide, GH200 and GB10 lspci, MI300X rocm-smi and
//          KFD properties, Strix Halo / Raphael sysfs).
//   [IDS]  pci.ids (src/catalog/*_pci_ids.cpp)
const std::vector<Sku>& skus() {
  static const std::vector<Sku> kSkus = [] {
    std::vector<Sku> v;
    // [SKU][CAP][FIX dgx-h100]: 81559 MiB, cc 9.0, NV18 via NVSwitch. nvidia-smi -q on an idle
    // H100 says Reserved 551 MiB and Free 81007 MiB (MiB rounding): 552 keeps free right.
    Sku h100;
    h100.id = "h100-sxm", h100.nvidia = true, h100.pci_device = 0x2330;
    h100.subsystem_vendor = 0x10de, h100.subsystem_device = 0x16c1, h100.pci_class = 0x030200;
    h100.name = "NVIDIA H100 80GB HBM3", h100.memory_mib = 81559, h100.reserved_mib = 552;
    h100.compute_cap = "9.0", h100.nvlinks = 18, h100.mig_capable = true;
    h100.driver = "550.54.15";
    // The first -q of nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt (an H100
    // 80GB HBM3 before its load); utilisation as the idle H200's (MIG hides it there).
    h100.idle = {"42",      "72.63 W",  "700.00 W",
                 "P0",      "0 %",      "345 MHz",
                 "345 MHz", "2619 MHz", "real capture: an idle H100 80GB HBM3"};
    v.push_back(h100);
    // [SKU] 143771 MiB; [IDS] 0x2335; [CAP] subsystem 18BE, 0 used and 143158 free (613 MiB
    // kept back, where H100 keeps 552; fixtures/hosts/h200-firecracker.yaml, recorded on an
    // H200 with subsystem 18BF and driver 580, has 143156 free).
    Sku h200 = h100;
    h200.id = "h200-sxm", h200.pci_device = 0x2335, h200.subsystem_device = 0x18be;
    h200.name = "NVIDIA H200", h200.memory_mib = 143771, h200.reserved_mib = 613;
    // The first -q of nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt (idle).
    h200.idle = {"28",      "77.88 W",  "700.00 W",
                 "P0",      "0 %",      "345 MHz",
                 "345 MHz", "3201 MHz", "real capture: an idle H200"};
    v.push_back(h200);
    Sku a100;  // [SKU][FIX dgx-a100]: 81920 MiB, 4 used, 81050 free, cc 8.0, NV12
    a100.id = "a100-sxm4-80gb", a100.nvidia = true, a100.pci_device = 0x20b2;
    a100.subsystem_vendor = 0x10de, a100.subsystem_device = 0x1463, a100.pci_class = 0x030200;
    a100.name = "NVIDIA A100-SXM4-80GB", a100.memory_mib = 81920, a100.reserved_mib = 866;
    a100.idle_used_mib = 4, a100.compute_cap = "8.0", a100.nvlinks = 12, a100.mig_capable = true;
    a100.driver = "535.129.03";
    v.push_back(a100);
    Sku gh200;  // [SKU][FIX gh200]: 97871 MiB (the HBM), 97320 free, ATS, cc 9.0
    gh200.id = "gh200", gh200.nvidia = true, gh200.pci_device = 0x2342;
    gh200.subsystem_vendor = 0x10de, gh200.subsystem_device = 0x16cb, gh200.pci_class = 0x030200;
    gh200.name = "NVIDIA GH200 480GB", gh200.memory_mib = 97871, gh200.reserved_mib = 551;
    gh200.compute_cap = "9.0", gh200.mig_capable = true, gh200.ats = true;
    gh200.driver = "580.95.05";
    v.push_back(gh200);
    Sku gb10;  // [SKU][FIX gx10]: memory [N/A] (unified), cc 12.1, class 0300
    gb10.id = "gb10", gb10.nvidia = true, gb10.pci_device = 0x2e12, gb10.pci_class = 0x030000;
    gb10.name = "NVIDIA GB10", gb10.compute_cap = "12.1", gb10.driver = "580.95.05";
    v.push_back(gb10);
    Sku rtx4090;  // [SKU][FIX rtx4090-amd-igpu]: 24564 MiB, 1 used, 24080 free, cc 8.9
    rtx4090.id = "rtx4090", rtx4090.nvidia = true, rtx4090.pci_device = 0x2684;
    rtx4090.subsystem_vendor = 0x10de, rtx4090.subsystem_device = 0x167c;
    rtx4090.pci_class = 0x030000, rtx4090.name = "NVIDIA GeForce RTX 4090";
    rtx4090.memory_mib = 24564, rtx4090.reserved_mib = 483, rtx4090.idle_used_mib = 1;
    rtx4090.compute_cap = "8.9", rtx4090.driver = "550.120", rtx4090.chip = "AD102";
    v.push_back(rtx4090);
    Sku mi300x;  // [FIX mi300x-8]: rocm-smi vram 205822885888, 299687936 idle, gfx942
    mi300x.id = "mi300x", mi300x.pci_device = 0x74a1, mi300x.subsystem_vendor = 0x1002;
    mi300x.subsystem_device = 0x74a1, mi300x.pci_class = 0x120000;
    mi300x.name = "AMD Instinct MI300X", mi300x.vram_bytes = 205822885888ull;
    mi300x.vram_idle_used = 299687936ull, mi300x.has_product_name = true;
    mi300x.gfx_target_version = 90402, mi300x.simd_count = 1216, mi300x.num_xcc = 8;
    mi300x.vbios = "113-M3000108-103";  // a public rocm-smi --showvbios
    mi300x.compute_partitions = {"SPX", "DPX", "QPX", "CPX"};
    mi300x.memory_partitions = {"NPS1", "NPS4"};
    v.push_back(mi300x);
    Sku w7900;  // [FIX amd-no-driver][IDS]: Navi 31, 48 GB GDDR6, gfx1100
    w7900.id = "radeon-pro-w7900", w7900.pci_device = 0x7448, w7900.subsystem_vendor = 0x1002;
    w7900.subsystem_device = 0x0e0d, w7900.pci_class = 0x030000;
    w7900.name = "AMD Radeon PRO W7900", w7900.vram_bytes = 51522830336ull;
    w7900.vram_idle_used = 234881024ull, w7900.gfx_target_version = 110000;
    w7900.simd_count = 192;
    v.push_back(w7900);
    Sku strix;  // [FIX strix-halo]: 4 GiB carve-out, 96 GiB GTT, gfx1151, 80 SIMDs
    strix.id = "strix-halo", strix.pci_device = 0x1586, strix.subsystem_vendor = 0xf111;
    strix.subsystem_device = 0x000a, strix.pci_class = 0x038000;
    strix.name = "AMD Radeon 8050S/8060S Graphics (Strix Halo)", strix.apu = true;
    strix.vram_bytes = 4294967296ull, strix.vram_idle_used = 181092352ull;
    strix.gfx_target_version = 110501, strix.simd_count = 80;
    strix.vbios = "113-STRXLGEN-001";  // public dmesg "ATOM BIOS:" lines
    v.push_back(strix);
    Sku raphael;  // [FIX rtx4090-amd-igpu]: 512 MiB carve-out, gfx1036, 2 CUs
    raphael.id = "raphael-igpu", raphael.pci_device = 0x164e, raphael.subsystem_vendor = 0x1043;
    raphael.subsystem_device = 0x8877, raphael.pci_class = 0x030000;
    raphael.name = "AMD Radeon Graphics (Raphael)", raphael.apu = true;
    raphael.vram_bytes = 536870912ull, raphael.vram_idle_used = 44855296ull;
    raphael.gfx_target_version = 100306, raphael.simd_count = 4;
    raphael.vbios = "102-RAPHAEL-008";  // public dmesg and rocm-smi --showvbios
    v.push_back(raphael);
    // [FIX tpu-v4-8, tpu-v5e-8]: 1ae0:005e bound to tpu_v4 with /dev/accelN (tensorflow/tpu
    // tools/driver); 1ae0:0063 bound to vfio-pci with /dev/vfio/GROUP (v5e VMs).
    Sku v4;
    v4.id = "tpu-v4", v4.tpu = true, v4.pci_device = 0x005e, v4.pci_class = 0x120000;
    v4.name = "Google TPU v4", v4.kernel_driver = "tpu_v4";
    v.push_back(v4);
    Sku v5e;
    v5e.id = "tpu-v5e", v5e.tpu = true, v5e.pci_device = 0x0063, v5e.pci_class = 0x120000;
    v5e.name = "Google TPU v5e", v5e.kernel_driver = "vfio-pci";
    v.push_back(v5e);
    // [FIX gaudi3-8]: 1da3:1060 class 1200 bound to habanalabs; hl-smi 131072 MiB, 130400 free
    // when idle, driver 1.24.1-b336d5e, board HL-325L (the real hl-smi capture cited there).
    Sku gaudi3;
    gaudi3.id = "gaudi3", gaudi3.gaudi = true, gaudi3.pci_device = 0x1060;
    gaudi3.pci_class = 0x120000, gaudi3.name = "HL-325L", gaudi3.memory_mib = 131072;
    gaudi3.idle_used_mib = 672, gaudi3.driver = "1.24.1-b336d5e";
    v.push_back(gaudi3);
    // [FIX inf2-48xlarge, trn1-32xlarge]: aws-neuron-driver ids 1d0f:7264 (Inferentia2) and
    // 1d0f:7164 (Trainium), class 0880, bound to neuron-driver; 32 GiB and 2 NeuronCores each
    // (neuron-ls memory_size 34359738368, nc_count 2); driver 2.24.7.0.
    Sku inf2;
    inf2.id = "inferentia2", inf2.neuron = true, inf2.pci_device = 0x7264;
    inf2.pci_class = 0x088000, inf2.name = "Inferentia2", inf2.memory_mib = 32768;
    inf2.neuron_cores = 2, inf2.driver = "2.24.7.0";
    v.push_back(inf2);
    Sku trn1 = inf2;
    trn1.id = "trainium", trn1.pci_device = 0x7164, trn1.name = "Trainium";
    v.push_back(trn1);
    // [FIX vulkan-desktop][IDS]: GA102 10de:2204 rev a1, subsystem 10de:1454, 24 GiB, cc 8.6.
    Sku rtx3090 = rtx4090;
    rtx3090.id = "rtx3090", rtx3090.pci_device = 0x2204, rtx3090.subsystem_device = 0x1454;
    rtx3090.name = "NVIDIA GeForce RTX 3090", rtx3090.memory_mib = 24576;
    rtx3090.reserved_mib = 483, rtx3090.compute_cap = "8.6", rtx3090.revision = 0xa1;
    rtx3090.chip = "GA102";
    v.push_back(rtx3090);
    // [FIX mac-studio-m2-ultra, macbook-pro-m3-max]: system_profiler names and GPU cores
    // (Apple's tech specs); MoltenVK's 32-bit device id 0x1a020209 for the M2 Ultra (the
    // fixture's; the M3 Max's is not known, so Vulkan lists it with the same family prefix).
    Sku m2u;
    m2u.id = "m2-ultra", m2u.apple = true, m2u.name = "Apple M2 Ultra", m2u.gpu_cores = 76;
    m2u.pci_vendor = 0x106b, m2u.vk_device_id = 0x1a020209;
    v.push_back(m2u);
    Sku m3max = m2u;
    m3max.id = "m3-max", m3max.name = "Apple M3 Max", m3max.gpu_cores = 40;
    m3max.vk_device_id = 0x1a030009;  // not verified
    v.push_back(m3max);
    // [FIX qualcomm-ai100]: 17cb:a100 class 1200 on qaic; qaic-util Dram Total 32692 MB, 16 NSPs.
    Sku ai100;
    ai100.id = "ai100", ai100.qualcomm = true, ai100.pci_vendor = 0x17cb;
    ai100.pci_device = 0xa100, ai100.pci_class = 0x120000, ai100.name = "Cloud AI 100";
    ai100.memory_mib = 32692, ai100.nsp_count = 16, ai100.driver = "1.5.6";
    ai100.kernel_driver = "qaic";
    v.push_back(ai100);
    // [FIX meteor-lake-npu]: 8086:7d1d rev 04 class 1200 on intel_vpu (NPU 3720).
    Sku mtl_npu;
    mtl_npu.id = "npu3720", mtl_npu.intel_npu = true, mtl_npu.pci_vendor = 0x8086;
    mtl_npu.pci_device = 0x7d1d, mtl_npu.pci_class = 0x120000, mtl_npu.revision = 0x04;
    mtl_npu.name = "Intel AI Boost NPU (Meteor Lake)", mtl_npu.kernel_driver = "intel_vpu";
    v.push_back(mtl_npu);
    // [FIX ryzen-ai-laptop]: 1022:17f0 rev 10 class 1180 on amdxdna (XDNA 2, Strix Point).
    Sku xdna2;
    xdna2.id = "xdna2-strix", xdna2.xdna = true, xdna2.pci_vendor = 0x1022;
    xdna2.pci_device = 0x17f0, xdna2.pci_class = 0x118000, xdna2.revision = 0x10;
    xdna2.name = "AMD Ryzen AI NPU (Strix Point)", xdna2.kernel_driver = "amdxdna";
    v.push_back(xdna2);
    // [FIX ryzen-ai-laptop]: Strix Point iGPU 1002:150e rev c1, 512 MiB carve-out (126 MiB
    // used), gfx1150, 32 SIMDs.
    Sku strix_point;
    strix_point.id = "strix-point-igpu", strix_point.pci_device = 0x150e;
    strix_point.pci_class = 0x038000, strix_point.revision = 0xc1;
    strix_point.name = "AMD Radeon 880M/890M Graphics (Strix Point)", strix_point.apu = true;
    strix_point.vram_bytes = 536870912ull, strix_point.vram_idle_used = 132452352ull;
    strix_point.gfx_target_version = 110500, strix_point.simd_count = 32;
    strix_point.vbios = "113-STRIXEMU-001";  // public dmesg "ATOM BIOS:" lines
    strix_point.chip = "GFX1150";
    v.push_back(strix_point);
    // [FIX intel-max-1550]: 8086:0bd5 rev 2f class 0380 on i915 (DKMS): lmem 2 x 65520 MiB,
    // xpu-smi's name.
    Sku max1550;
    max1550.id = "max-1550", max1550.intel_gpu = true, max1550.pci_vendor = 0x8086;
    max1550.pci_device = 0x0bd5, max1550.pci_class = 0x038000, max1550.revision = 0x2f;
    max1550.name = "Intel(R) Data Center GPU Max 1550", max1550.vram_bytes = 137405399040ull;
    max1550.vram_idle_used = 452132864ull, max1550.kernel_driver = "i915", max1550.chip = "PVC";
    v.push_back(max1550);
    // [FIX meteor-lake-npu]: Meteor Lake-P iGPU 8086:7d55 class 0300 on i915 (no local memory);
    // Mesa ANV names it "Intel(R) Arc(tm) Graphics (MTL)".
    Sku arc_mtl;
    arc_mtl.id = "arc-mtl", arc_mtl.intel_gpu = true, arc_mtl.pci_vendor = 0x8086;
    arc_mtl.pci_device = 0x7d55, arc_mtl.pci_class = 0x030000, arc_mtl.apu = true;
    arc_mtl.name = "Intel(R) Arc(TM) Graphics", arc_mtl.kernel_driver = "i915";
    arc_mtl.vk_name = "Intel(R) Arc(tm) Graphics (MTL)", arc_mtl.chip = "MTL";
    v.push_back(arc_mtl);
    return v;
  }();
  return kSkus;
}

// Flags lines are those of the fixtures (fixtures/hosts/*.yaml cite the real
// hosts each is from): Sapphire Rapids on 5.15, Zen 2 (EPYC 7742), Zen 3 as a
// GCE guest (EPYC 7B13), Zen 4 (EPYC 9654), Zen 5 (Ryzen AI Max), Grace, GB10.
constexpr std::string_view kSprFlags =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx "
    "fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs "
    "bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 "
    "ds_cpl vmx smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic movbe "
    "popcnt tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb "
    "cat_l3 cat_l2 cdp_l3 invpcid_single intel_ppin cdp_l2 ssbd mba ibrs ibpb stibp ibrs_enhanced "
    "tpr_shadow vnmi flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms "
    "invpcid cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb intel_pt "
    "avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc "
    "cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni avx512_bf16 wbnoinvd dtherm ida arat "
    "pln pts avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni "
    "avx512_bitalg tme avx512_vpopcntdq la57 rdpid bus_lock_detect cldemote movdiri movdir64b "
    "enqcmd fsrm md_clear serialize tsxldtrk pconfig arch_lbr amx_bf16 avx512_fp16 amx_tile "
    "amx_int8 flush_l1d arch_capabilities";
constexpr std::string_view kZen2Flags =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse "
    "sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc "
    "cpuid extd_apicid aperfmperf pni pclmulqdq monitor ssse3 fma cx16 sse4_1 sse4_2 movbe popcnt "
    "aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic cr8_legacy abm sse4a misalignsse "
    "3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc "
    "mwaitx "
    "cpb cat_l3 cdp_l3 hw_pstate ssbd mba ibrs ibpb stibp vmmcall fsgsbase bmi1 avx2 smep bmi2 cqm "
    "rdt_a rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves cqm_llc "
    "cqm_occup_llc cqm_mbm_total cqm_mbm_local clzero irperf xsaveerptr rdpru wbnoinvd amd_ppin "
    "arat npt lbrv svm_lock nrip_save tsc_scale vmcb_clean flushbyasid decodeassists pausefilter "
    "pfthreshold avic v_vmsave_vmload vgif umip rdpid overflow_recov succor smca sme sev sev_es";
constexpr std::string_view kZen3GuestFlags =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse "
    "sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc "
    "cpuid extd_apicid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe "
    "popcnt aes xsave avx f16c rdrand hypervisor lahf_lm cmp_legacy cr8_legacy abm sse4a "
    "misalignsse 3dnowprefetch osvw topoext ssbd ibrs ibpb stibp vmmcall fsgsbase tsc_adjust bmi1 "
    "avx2 smep bmi2 erms invpcid rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 "
    "clzero xsaveerptr arat npt nrip_save umip vaes vpclmulqdq rdpid fsrm";
constexpr std::string_view kZen4Flags =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse "
    "sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good amd_lbr_v2 nopl "
    "nonstop_tsc cpuid extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 pcid "
    "sse4_1 "
    "sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic "
    "cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core "
    "perfctr_nb bpext perfctr_llc mwaitx cpb cat_l3 cdp_l3 hw_pstate ssbd mba perfmon_v2 ibrs ibpb "
    "stibp ibrs_enhanced vmmcall fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f "
    "avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl "
    "xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local avx512_bf16 "
    "clzero irperf xsaveerptr rdpru wbnoinvd amd_ppin cppc arat npt lbrv svm_lock nrip_save "
    "tsc_scale vmcb_clean flushbyasid decodeassists pausefilter pfthreshold avic v_vmsave_vmload "
    "vgif x2avic v_spec_ctrl vnmi avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq "
    "avx512_vnni avx512_bitalg avx512_vpopcntdq la57 rdpid overflow_recov succor smca fsrm "
    "flush_l1d";
constexpr std::string_view kZen5Flags =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse "
    "sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good amd_lbr_v2 nopl "
    "nonstop_tsc cpuid extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 pcid "
    "sse4_1 "
    "sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic "
    "cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core "
    "perfctr_nb bpext perfctr_llc mwaitx cpb cat_l3 cdp_l3 hw_pstate ssbd mba perfmon_v2 ibrs ibpb "
    "stibp ibrs_enhanced vmmcall fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f "
    "avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl "
    "xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local avx512_bf16 "
    "clzero irperf xsaveerptr rdpru wbnoinvd amd_ppin cppc arat npt lbrv svm_lock nrip_save "
    "tsc_scale vmcb_clean flushbyasid decodeassists pausefilter pfthreshold avic v_vmsave_vmload "
    "vgif x2avic v_spec_ctrl vnmi avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq "
    "avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid overflow_recov succor smca fsrm flush_l1d "
    "movdiri movdir64b avx_vnni avx512_vp2intersect";
constexpr std::string_view kGraceFeatures =
    "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma "
    "lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg "
    "dcpodp sve2 sveaes svepmull svebitperm svesha3 svesm4 flagm2 frint svei8mm svebf16 i8mm bf16 "
    "dgh bti";
constexpr std::string_view kGb10Features =
    "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma "
    "lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm sb paca pacg "
    "dcpodp sve2 sveaes svepmull svebitperm svesha3 svesm4 flagm2 frint svei8mm svebf16 i8mm bf16 "
    "dgh bti ecv afp wfxt";

constexpr std::string_view kMeteorLakeFlags =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi "
    "mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon "
    "pebs bts rep_good nopl xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq "
    "dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid sse4_1 sse4_2 "
    "x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch "
    "cpuid_fault epb intel_ppin ssbd ibrs ibpb stibp ibrs_enhanced tpr_shadow flexpriority ept "
    "vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid rdseed adx smap clflushopt "
    "clwb intel_pt sha_ni xsaveopt xsavec xgetbv1 xsaves split_lock_detect user_shstk avx_vnni "
    "dtherm ida arat pln pts hwp hwp_notify hwp_act_window hwp_epp hwp_pkg_req hfi vnmi umip pku "
    "ospke waitpkg gfni vaes vpclmulqdq rdpid bus_lock_detect movdiri movdir64b fsrm md_clear "
    "serialize arch_lbr ibt flush_l1d arch_capabilities";
// Apple silicon under macOS: no /proc/cpuinfo; the spec's model is sysctl's brand string.
constexpr std::string_view kAppleFeatures = "";

constexpr std::array<Uarch, 9> kUarchs = {{
    {"sapphire-rapids", false, "GenuineIntel", 6, 143, 8, kSprFlags, "", 2000.0},
    {"zen2", false, "AuthenticAMD", 23, 49, 0, kZen2Flags, "", 2250.0},
    {"zen3", false, "AuthenticAMD", 25, 1, 0, kZen3GuestFlags, "", 2450.0},
    {"zen4", false, "AuthenticAMD", 25, 17, 1, kZen4Flags, "", 2400.0},
    {"zen5", false, "AuthenticAMD", 26, 112, 0, kZen5Flags, "", 3000.0},
    {"neoverse-v2", true, "", 0, 0, 0, kGraceFeatures, "neoverse-v2", 0},
    {"gb10", true, "", 0, 0, 0, kGb10Features, "cortex-x925", 0},
    {"meteor-lake", false, "GenuineIntel", 6, 170, 4, kMeteorLakeFlags, "", 1400.0},
    {"apple-silicon", true, "", 0, 0, 0, kAppleFeatures, "", 0},
}};

constexpr std::array<std::pair<std::string_view, std::uint16_t>, 8> kArmParts = {{
    {"neoverse-n1", 0xd0c},
    {"neoverse-v1", 0xd40},
    {"neoverse-n2", 0xd49},
    {"neoverse-v2", 0xd4f},
    {"neoverse-v3", 0xd84},
    {"cortex-x925", 0xd85},
    {"cortex-a725", 0xd87},
    {"cortex-a78ae", 0xd42},
}};

}  // namespace

const Sku* find_sku(std::string_view id) {
  for (const auto& s : skus())
    if (s.id == id) return &s;
  return nullptr;
}

std::vector<std::string> sku_names() {
  std::vector<std::string> names;
  for (const auto& s : skus()) names.emplace_back(s.id);
  return names;
}

const Uarch* find_uarch(std::string_view id) {
  for (const auto& u : kUarchs)
    if (u.id == id) return &u;
  return nullptr;
}

std::vector<std::string> uarch_names() {
  std::vector<std::string> names;
  for (const auto& u : kUarchs) names.emplace_back(u.id);
  return names;
}

std::optional<std::uint16_t> arm_part_id(std::string_view name) {
  for (const auto& [n, id] : kArmParts)
    if (n == name) return id;
  return std::nullopt;
}

std::vector<std::string> arm_part_names() {
  std::vector<std::string> names;
  for (const auto& [n, id] : kArmParts) names.emplace_back(n);
  return names;
}

}  // namespace hwaccel::sim
