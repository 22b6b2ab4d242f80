// /proc/cpuinfo (one block per logical CPU, as the kernel prints it for x86 and
// arm64) and /proc/meminfo (the 6.x kernel's lines and layout).
#include <cstdio>

#include "sim/synth_parts.h"

namespace hwaccel::sim::detail {
namespace {

// A guest's flags: the kernel sets "hypervisor" (CPUID leaf 1, ECX bit 31) in every
// VM, right after rdrand in its bit order (as the recorded Firecracker guests show).
std::string guest_flags(std::string flags) {
  if ((" " + flags + " ").find(" hypervisor ") != std::string::npos) return flags;
  const auto rdrand = (" " + flags + " ").find(" rdrand ");
  if (rdrand == std::string::npos) return flags + " hypervisor";
  return flags.insert(rdrand + 6, " hypervisor");
}

std::string x86_cpuinfo(const CpuSpec& cpu, const Uarch& u, bool guest) {
  const int per_socket = cpu.cores;
  const int logical = cpu.logical_cpus();
  char mhz[32], bogo[32];
  std::snprintf(mhz, sizeof mhz, "%.3f", u.mhz);
  std::snprintf(bogo, sizeof bogo, "%.2f", u.mhz * 2);
  const bool intel = u.vendor_id == "GenuineIntel";
  std::string out;
  out.reserve(std::size_t(logical) * (u.flags.size() + 700));
  const std::string flags = guest ? guest_flags(std::string(u.flags)) : std::string(u.flags);
  for (int l = 0; l < logical; ++l) {
    const int thread = l / (cpu.sockets * per_socket);
    const int socket = (l % (cpu.sockets * per_socket)) / per_socket;
    const int core = l % per_socket;
    const int apic = socket * 256 + core * 2 + thread;
    out += "processor\t: " + std::to_string(l) + "\n";
    out += "vendor_id\t: " + std::string(u.vendor_id) + "\n";
    out += "cpu family\t: " + std::to_string(u.family) + "\n";
    out += "model\t\t: " + std::to_string(u.model) + "\n";
    out += "model name\t: " + cpu.model + "\n";
    out += "stepping\t: " + std::to_string(u.stepping) + "\n";
    out += std::string("microcode\t: ") + (intel ? "0x2b000639" : "0xa101148") + "\n";
    out += std::string("cpu MHz\t\t: ") + mhz + "\n";
    out += std::string("cache size\t: ") + (intel ? "107520 KB" : "1024 KB") + "\n";
    out += "physical id\t: " + std::to_string(socket) + "\n";
    out += "siblings\t: " + std::to_string(per_socket * cpu.threads) + "\n";
    out += "core id\t\t: " + std::to_string(core) + "\n";
    out += "cpu cores\t: " + std::to_string(per_socket) + "\n";
    out += "apicid\t\t: " + std::to_string(apic) + "\n";
    out += "initial apicid\t: " + std::to_string(apic) + "\n";
    out += "fpu\t\t: yes\nfpu_exception\t: yes\n";
    out += std::string("cpuid level\t: ") + (intel ? "32" : "16") + "\n";
    out += "wp\t\t: yes\n";
    out += "flags\t\t: " + flags + "\n";
    out += std::string("bugs\t\t: ") +
           (intel ? "spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb"
                  : "sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass srso") +
           "\n";
    out += std::string("bogomips\t: ") + bogo + "\n";
    out += "clflush size\t: 64\ncache_alignment\t: 64\n";
    out += std::string("address sizes\t: ") +
           (intel ? "52 bits physical, 57 bits virtual" : "48 bits physical, 48 bits virtual") +
           "\n";
    out += std::string("power management:") + (intel ? "" : " ts ttp tm hwpstate cpb eff_freq_ro") +
           "\n\n";
  }
  return out;
}

std::string arm_cpuinfo(const CpuSpec& cpu, const Uarch& u) {
  std::string out;
  int l = 0;
  for (const auto& cluster : cpu.clusters) {
    const auto part = arm_part_id(cluster.part).value_or(0);
    for (int i = 0; i < cluster.count; ++i, ++l) {
      out += "processor\t: " + std::to_string(l) + "\n";
      out += "BogoMIPS\t: 2000.00\n";
      out += "Features\t: " + std::string(u.flags) + "\n";
      out += "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n";
      out += "CPU part\t: " + hex_id(part, 3) + "\n";
      out += "CPU revision\t: 1\n\n";
    }
  }
  return out;
}

// "MemTotal:       125508468 kB": the label padded to 16 columns, the number to 8.
std::string kb_line(const char* label, std::uint64_t kb) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-16s%8llu kB\n", label, static_cast<unsigned long long>(kb));
  return buf;
}

std::string meminfo(const MemorySpec& m) {
  const std::uint64_t total = m.total_kb, avail = m.available_kb;
  const std::uint64_t buffers = total / 400, cached = total / 60 < avail ? total / 60 : avail / 2;
  const std::uint64_t free = avail > cached + buffers ? avail - cached - buffers / 2 : avail / 2;
  const std::uint64_t anon = total > avail ? (total - avail) / 2 : 0;
  std::string out;
  out += kb_line("MemTotal:", total);
  out += kb_line("MemFree:", free);
  out += kb_line("MemAvailable:", avail);
  out += kb_line("Buffers:", buffers);
  out += kb_line("Cached:", cached);
  out += kb_line("SwapCached:", 0);
  out += kb_line("Active:", anon + cached / 3);
  out += kb_line("Inactive:", cached - cached / 3);
  out += kb_line("Active(anon):", anon);
  out += kb_line("Inactive(anon):", 0);
  out += kb_line("Active(file):", cached / 3);
  out += kb_line("Inactive(file):", cached - cached / 3);
  out += kb_line("Unevictable:", 0);
  out += kb_line("Mlocked:", 0);
  out += kb_line("SwapTotal:", 0);
  out += kb_line("SwapFree:", 0);
  out += kb_line("Dirty:", 128);
  out += kb_line("Writeback:", 0);
  out += kb_line("AnonPages:", anon);
  out += kb_line("Mapped:", cached / 10);
  out += kb_line("Shmem:", cached / 50);
  out += kb_line("KReclaimable:", total / 1000);
  out += kb_line("Slab:", total / 400);
  out += kb_line("SReclaimable:", total / 1000);
  out += kb_line("SUnreclaim:", total / 400 - total / 1000);
  out += kb_line("KernelStack:", 20480);
  out += kb_line("PageTables:", total / 5000);
  out += kb_line("CommitLimit:", total / 2);
  out += kb_line("Committed_AS:", anon * 2);
  out += kb_line("VmallocTotal:", 34359738367ull);
  out += kb_line("HardwareCorrupted:", 0);
  out += kb_line("AnonHugePages:", 0);
  out +=
      "HugePages_Total:       0\nHugePages_Free:        0\nHugePages_Rsvd:        0\n"
      "HugePages_Surp:        0\n";
  out += kb_line("Hugepagesize:", 2048);
  out += kb_line("Hugetlb:", 0);
  return out;
}

}  // namespace

void add_cpu_and_memory(const Plan& plan, Snapshot& s) {
  const HostSpec& spec = *plan.spec;
  const Uarch* u = find_uarch(spec.cpu.uarch);
  if (u)
    s.files["/proc/cpuinfo"] = FileEntry::of_content(
        u->arm ? arm_cpuinfo(spec.cpu, *u) : x86_cpuinfo(spec.cpu, *u, !spec.vm.empty()));
  s.files["/proc/meminfo"] = FileEntry::of_content(meminfo(spec.memory));
}

}  // namespace hwaccel::sim::detail
