// Facts of a tree from its files alone: the architectures `hwsim import` used to
// get wrong (IA-64, big-endian POWER7, 32-bit ARM, an i386 kernel on an `lm` CPU),
// hwloc-gather's /proc/hwloc-nofile-info, and CPU counts without an online list.
#include "src/host/tree_facts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace hwaccel {
namespace {

struct Tree {
  std::map<std::string, std::string> files;
  TreeFiles view() const {
    TreeFiles t;
    t.read = [this](const std::string& p) -> std::optional<std::string> {
      auto it = files.find(p);
      if (it == files.end()) return std::nullopt;
      return it->second;
    };
    t.list = [this](const std::string& dir) {
      std::vector<std::string> names;
      for (const auto& [path, _] : files)
        if (path.rfind(dir + "/", 0) == 0) {
          std::string rest = path.substr(dir.size() + 1);
          rest = rest.substr(0, rest.find('/'));
          if (names.empty() || names.back() != rest) names.push_back(rest);
        }
      return names;
    };
    return t;
  }
};

std::string arch_of(const std::string& cpuinfo, const std::string& meminfo = "") {
  std::string why;
  return arch_from_cpuinfo(cpuinfo, meminfo, why);
}

// The first lines of real /proc/cpuinfo files (hwloc's test trees).
TEST(TreeFacts, ArchitectureFromRealCpuinfoShapes) {
  EXPECT_EQ(arch_of("processor  : 0\nvendor     : GenuineIntel\narch       : IA-64\n"
                    "features   : branchlong, 16-byte atomic ops\n"),
            "ia64");
  EXPECT_EQ(arch_of("processor\t: 0\ncpu\t\t: POWER7 (architected), altivec supported\n"), "ppc64");
  EXPECT_EQ(arch_of("processor\t: 0\ncpu\t\t: POWER9 (raw), altivec supported\n"), "ppc64le");
  EXPECT_EQ(arch_of("Processor\t: ARMv7 Processor rev 1 (v7l)\nprocessor\t: 0\n"
                    "CPU implementer\t: 0x41\nCPU architecture: 7\n"),
            "armv7l");
  EXPECT_EQ(arch_of("processor\t: 0\nCPU implementer\t: 0x48\nCPU architecture: 8\n"), "aarch64");
  EXPECT_EQ(arch_of("vendor_id       : IBM/S390\nfeatures\t: esan3 zarch stfle msa\n"), "s390x");
  const std::string xeon = "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu lm sse2\n";
  EXPECT_EQ(arch_of(xeon, "MemTotal:  2075428 kB\nHighTotal:     1179296 kB\n"), "i686");
  EXPECT_EQ(arch_of(xeon, "MemTotal:  2075428 kB\nHighTotal:           0 kB\n"), "x86_64");
  EXPECT_EQ(arch_of(xeon), "x86_64");
  EXPECT_EQ(arch_of("processor\t: 0\nflags\t\t: fpu sse2\n"), "i686");
  EXPECT_EQ(arch_of("nothing: here\n"), "");
}

TEST(TreeFacts, NofileInfoIsReadAndBounded) {
  auto info = parse_hwloc_nofile_info(
      "OSName: Linux\nOSRelease: 5.15.0-rc1\nHostName: ubuntu\nArchitecture: aarch64\n"
      "FallbackNbProcessors: 128\nPageSize: 65536\n");
  EXPECT_EQ(info.architecture, "aarch64");
  EXPECT_EQ(info.os_release, "5.15.0-rc1");
  EXPECT_EQ(info.hostname, "ubuntu");
  EXPECT_EQ(info.page_size, 65536);
  EXPECT_EQ(info.processors, 128);
  auto odd = parse_hwloc_nofile_info(
      "PageSize: 3000\nArchitecture: x\x1b[31m\nFallbackNbProcessors: -1\n");
  EXPECT_EQ(odd.page_size, 0);      // not a power of two
  EXPECT_EQ(odd.architecture, "");  // a control byte: not a name to print
  EXPECT_EQ(odd.processors, 0);
}

TEST(TreeFacts, NofileInfoWinsAndFamilyNamesAreRefined) {
  Tree t;
  t.files["/proc/hwloc-nofile-info"] =
      "OSRelease: 6.1.0-13-amd64\nHostName: vesubie\nArchitecture: x86_64\nPageSize: 4096\n";
  t.files["/sys/devices/system/cpu/online"] = "0-19\n";
  std::vector<std::string> notes;
  Facts f = facts_from_tree(t.view(), notes);
  EXPECT_EQ(f.arch, "x86_64");
  EXPECT_EQ(f.kernel, "6.1.0-13-amd64");
  EXPECT_EQ(f.hostname, "vesubie");
  EXPECT_EQ(f.page_size, 4096);
  EXPECT_EQ(f.cpus, 20);

  Tree ppc;  // hwloc's POWER7 tree: "Architecture: ppc" and a POWER7 cpuinfo
  ppc.files["/proc/hwloc-nofile-info"] = "Architecture: ppc\n";
  ppc.files["/proc/cpuinfo"] = "processor\t: 0\ncpu\t\t: POWER7 (architected)\n";
  notes.clear();
  EXPECT_EQ(facts_from_tree(ppc.view(), notes).arch, "ppc64");
}

// hwloc's 2ps3-2t tree (a PlayStation 3): "Architecture: ppc" and a Cell
// cpuinfo, which only a 64-bit (big-endian) kernel runs.
TEST(TreeFacts, PlayStation3CellIsPpc64) {
  Tree ps3;
  ps3.files["/proc/hwloc-nofile-info"] = "Architecture: ppc\n";
  ps3.files["/proc/cpuinfo"] =
      "processor\t: 0\ncpu\t\t: Cell Broadband Engine, altivec supported\n"
      "clock\t\t: 3192.000000MHz\nrevision\t: 16.0 (pvr 0070 1000)\n\n"
      "timebase\t: 79800000\nplatform\t: PS3\nmodel\t\t: SonyPS3\n";
  std::vector<std::string> notes;
  EXPECT_EQ(facts_from_tree(ps3.view(), notes).arch, "ppc64");
  // The note says why the family "ppc" became ppc64.
  EXPECT_EQ(std::count_if(notes.begin(), notes.end(),
                          [](const std::string& n) {
                            return n.rfind("facts.arch: ppc64", 0) == 0 &&
                                   n.find("Cell Broadband Engine") != std::string::npos;
                          }),
            1);
  EXPECT_EQ(arch_of("processor\t: 0\ncpu\t\t: PA6T, altivec supported\n"), "ppc64");
  EXPECT_EQ(arch_of("processor\t: 0\ncpu\t\t: PPC970MP, altivec supported\n"), "ppc64");
}

// hwloc's 8ia64-2n2s2c tree has no /proc at all; its cache folders carry the
// `attributes` file that only ia64 kernels write.
TEST(TreeFacts, Ia64FromSysfsWithoutProc) {
  Tree t;
  const std::string cache = "/sys/devices/system/cpu/cpu0/cache/index0/";
  t.files[cache + "attributes"] = "WriteThrough\n";
  t.files[cache + "level"] = "1\n";
  t.files["/sys/devices/system/cpu/cpu1/topology/core_id"] = "0\n";
  std::vector<std::string> notes;
  Facts f = facts_from_tree(t.view(), notes);
  EXPECT_EQ(f.arch, "ia64");
  std::string why;
  EXPECT_EQ(arch_from_sysfs(t.view(), why), "ia64");
  EXPECT_NE(why.find("attributes"), std::string::npos);

  Tree x86;  // the common cacheinfo: write_policy, no attributes
  x86.files[cache + "write_policy"] = "WriteBack\n";
  x86.files[cache + "level"] = "1\n";
  EXPECT_EQ(arch_from_sysfs(x86.view(), why), "");
  notes.clear();
  EXPECT_EQ(facts_from_tree(x86.view(), notes).arch, "");
  Tree odd;  // anything else in the file is not taken for ia64
  odd.files[cache + "attributes"] = "whatever\n";
  EXPECT_EQ(arch_from_sysfs(odd.view(), why), "");
}

TEST(TreeFacts, CpuCountWithoutOnlineList) {
  Tree t;  // hwloc's 4fake tree: cpuN folders only; and one offline CPU
  for (int i = 0; i < 4; ++i)
    t.files["/sys/devices/system/cpu/cpu" + std::to_string(i) + "/topology/physical_package_id"] =
        "0\n";
  t.files["/sys/devices/system/cpu/cpu3/online"] = "0\n";
  t.files["/sys/devices/system/cpu/cpuidle/current_driver"] = "none\n";
  std::string source;
  EXPECT_EQ(online_cpus(t.view(), source), (std::vector<int>{0, 1, 2}));
  EXPECT_NE(source.find("cpuN folders"), std::string::npos);
  std::vector<std::string> notes;
  EXPECT_EQ(facts_from_tree(t.view(), notes).cpus, 3);

  Tree cpuinfo_only;
  cpuinfo_only.files["/proc/cpuinfo"] = "processor\t: 0\n\nprocessor\t: 1\n";
  EXPECT_EQ(online_cpus(cpuinfo_only.view(), source).size(), 2u);
  Tree none;
  notes.clear();
  Facts f = facts_from_tree(none.view(), notes);
  EXPECT_EQ(f.cpus, 0);
  EXPECT_EQ(f.arch, "");
}

TEST(TreeFacts, CpuLists) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("\n"), std::vector<int>{});
  EXPECT_FALSE(parse_cpu_list("3-1"));
  EXPECT_FALSE(parse_cpu_list("0-4294967295"));  // bounded, not 4 billion ints
  EXPECT_FALSE(parse_cpu_list("a"));
  EXPECT_FALSE(parse_cpu_list("1,,2"));
}

}  // namespace
}  // namespace hwaccel
