// /proc/cpuinfo -> the CPU's name, vendor and ISA class.
//
// x86 names come from "model name" and the ISA class from "flags"; arm64 has no
// model name, so the name is built from the "CPU implementer"/"CPU part" ids of
// every processor block (big.LITTLE-style chips list two kinds of core).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hwaccel {

struct CpuInfo {
  std::string name;       // "Intel(R) Xeon(R) Platinum 8480+", "Arm Neoverse-V2"; "" unknown
  std::string vendor;     // "Intel", "AMD", "Arm", "NVIDIA", ...; "" unknown
  std::string isa_class;  // avx512 | avx2 | sse2 | sve2 | sve | neon; "" unknown
};

CpuInfo parse_proc_cpuinfo(std::string_view text);

// The ids as Linux's arch/arm64/include/asm/cputype.h names them; "" when unknown.
std::string arm_implementer_name(std::uint64_t implementer);
std::string arm_part_name(std::uint64_t implementer, std::uint64_t part);

}  // namespace hwaccel
