#include "src/probe/proc_cpuinfo.h"

#include <gtest/gtest.h>

#include "src/vocabulary/text_util.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

// An excerpt of a Sapphire Rapids host's /proc/cpuinfo (two of its processors).
constexpr std::string_view kXeon8480 =
    "processor\t: 0\n"
    "vendor_id\t: GenuineIntel\n"
    "cpu family\t: 6\n"
    "model\t\t: 143\n"
    "model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
    "stepping\t: 8\n"
    "microcode\t: 0x2b000461\n"
    "cpu MHz\t\t: 2000.000\n"
    "cache size\t: 107520 KB\n"
    "physical id\t: 0\n"
    "siblings\t: 112\n"
    "core id\t\t: 0\n"
    "cpu cores\t: 56\n"
    "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 "
    "clflush dts acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm "
    "constant_tsc pni pclmulqdq ssse3 fma cx16 sse4_1 sse4_2 x2apic movbe popcnt aes xsave "
    "avx f16c rdrand lahf_lm abm bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed "
    "adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec "
    "avx512_bf16 amx_bf16 avx512_fp16 amx_tile amx_int8\n"
    "bugs\t\t: spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb\n"
    "bogomips\t: 4000.00\n"
    "address sizes\t: 46 bits physical, 57 bits virtual\n"
    "power management:\n"
    "\n"
    "processor\t: 1\n"
    "vendor_id\t: GenuineIntel\n"
    "model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
    "flags\t\t: fpu sse sse2 avx avx2 avx512f\n"
    "\n";

// One arm64 processor block as Linux prints it.
std::string arm_block(int processor, std::string_view part, std::string_view features,
                      std::string_view implementer = "0x41") {
  return "processor\t: " + std::to_string(processor) +
         "\nBogoMIPS\t: 2000.00\nFeatures\t: " + std::string(features) +
         "\nCPU implementer\t: " + std::string(implementer) +
         "\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: " + std::string(part) +
         "\nCPU revision\t: 1\n\n";
}

constexpr std::string_view kGb10Features =
    "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma "
    "lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm sb paca pacg "
    "dcpodp sve2 sveaes svepmull svebitperm svesha3 svesm4 flagm2 frint svei8mm svebf16 i8mm "
    "bf16 dgh bti ecv afp wfxt";

TEST(ProcCpuinfo, IntelXeonWithAvx512) {
  auto info = parse_proc_cpuinfo(kXeon8480);
  EXPECT_EQ(info.name, "Intel(R) Xeon(R) Platinum 8480+");
  EXPECT_EQ(info.vendor, "Intel");
  EXPECT_EQ(info.isa_class, "avx512");
}

TEST(ProcCpuinfo, RealIntelLaptopFromProcfsFixturesIsAvx2) {
  auto archive = testing::slurp(testing::real_capture_path("procfs-fixtures.ttar"));
  if (!archive) GTEST_FAIL() << "real captures not found at " << testing::real_capture_path("");
  auto at = archive->find("Path: fixtures/proc/cpuinfo\n");
  ASSERT_NE(at, std::string::npos);
  auto end = archive->find("\n# ttar", at);
  auto info = parse_proc_cpuinfo(std::string_view(*archive).substr(at, end - at));
  EXPECT_EQ(info.name, "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz");
  EXPECT_EQ(info.vendor, "Intel");
  EXPECT_EQ(info.isa_class, "avx2");
}

TEST(ProcCpuinfo, AmdEpyc) {
  auto info = parse_proc_cpuinfo(
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9654 96-Core Processor\n"
      "flags\t\t: fpu sse sse2 avx avx2 avx512f avx512_bf16\n");
  EXPECT_EQ(info.name, "AMD EPYC 9654 96-Core Processor");
  EXPECT_EQ(info.vendor, "AMD");
  EXPECT_EQ(info.isa_class, "avx512");
}

TEST(ProcCpuinfo, OldX86IsSse2AndSpacesInNamesAreCollapsed) {
  auto info = parse_proc_cpuinfo(
      "processor : 0\nvendor_id : GenuineIntel\n"
      "model name : Intel(R) Xeon(R) CPU           E5-2680 v4 @ 2.40GHz\n"
      "flags : fpu mmx sse sse2 ssse3\n");
  EXPECT_EQ(info.name, "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz");
  EXPECT_EQ(info.isa_class, "sse2");
  // "avx2" must be a whole flag, not a prefix of another one.
  EXPECT_EQ(parse_proc_cpuinfo("flags : sse sse2 avx2_fake avx512fx\n").isa_class, "sse2");
}

TEST(ProcCpuinfo, Gb10NamesBothKindsOfCoreWithCounts) {
  std::string text;
  for (int i = 0; i < 10; ++i) text += arm_block(i, "0xd85", kGb10Features);
  for (int i = 10; i < 20; ++i) text += arm_block(i, "0xd87", kGb10Features);
  auto info = parse_proc_cpuinfo(text);
  EXPECT_EQ(info.name, "Arm Cortex-X925 x10 + Cortex-A725 x10");
  EXPECT_EQ(info.vendor, "Arm");
  EXPECT_EQ(info.isa_class, "sve2");
}

TEST(ProcCpuinfo, MixedCoresAreNamedInOrderOfFirstAppearance) {
  std::string text;
  for (int i = 0; i < 6; ++i) text += arm_block(i, i % 3 == 0 ? "0xd87" : "0xd85", "fp asimd");
  EXPECT_EQ(parse_proc_cpuinfo(text).name, "Arm Cortex-A725 x2 + Cortex-X925 x4");
}

TEST(ProcCpuinfo, GraceIsOneNeoverseV2WithoutCount) {
  std::string text;
  for (int i = 0; i < 72; ++i) text += arm_block(i, "0xd4f", "fp asimd sve sve2 bf16");
  auto info = parse_proc_cpuinfo(text);
  EXPECT_EQ(info.name, "Arm Neoverse-V2");
  EXPECT_EQ(info.isa_class, "sve2");
}

TEST(ProcCpuinfo, Graviton2IsNeoverseN1WithNeon) {
  auto info = parse_proc_cpuinfo(arm_block(0, "0xd0c", "fp asimd evtstrm aes pmull") +
                                 arm_block(1, "0xd0c", "fp asimd evtstrm aes pmull"));
  EXPECT_EQ(info.name, "Arm Neoverse-N1");
  EXPECT_EQ(info.isa_class, "neon");
}

TEST(ProcCpuinfo, Graviton3HasSve) {
  EXPECT_EQ(parse_proc_cpuinfo(arm_block(0, "0xd40", "fp asimd sve svebf16")).isa_class, "sve");
}

TEST(ProcCpuinfo, UnknownPartsAndImplementersAreShownById) {
  EXPECT_EQ(parse_proc_cpuinfo(arm_block(0, "0xd99", "fp")).name, "Arm CPU part 0xd99");
  auto odd = parse_proc_cpuinfo(arm_block(0, "0x1", "fp", "0x99"));
  EXPECT_EQ(odd.name, "CPU implementer 0x99 CPU part 0x001");
  EXPECT_EQ(odd.vendor, "CPU implementer 0x99");
}

TEST(ProcCpuinfo, OtherImplementers) {
  EXPECT_EQ(parse_proc_cpuinfo(arm_block(0, "0x004", "fp asimd", "0x4e")).name, "NVIDIA Carmel");
  EXPECT_EQ(parse_proc_cpuinfo(arm_block(0, "0x004", "fp asimd", "0x4e")).vendor, "NVIDIA");
  EXPECT_EQ(parse_proc_cpuinfo(arm_block(0, "0xac3", "fp asimd", "0xc0")).name, "Ampere AmpereOne");
  EXPECT_EQ(parse_proc_cpuinfo(arm_block(0, "0xd01", "fp asimd", "0x48")).name, "HiSilicon TSV110");
  EXPECT_EQ(parse_proc_cpuinfo(arm_block(0, "0x022", "fp asimd", "0x61") +
                               arm_block(1, "0x023", "fp asimd", "0x61"))
                .name,
            "Apple M1 Icestorm x1 + M1 Firestorm x1");
  // Different implementers in one chip: each kind carries its own.
  EXPECT_EQ(
      parse_proc_cpuinfo(arm_block(0, "0xd0c", "fp") + arm_block(1, "0x004", "fp", "0x4e")).name,
      "Arm Neoverse-N1 x1 + NVIDIA Carmel x1");
}

TEST(ProcCpuinfo, PartIdsMatchLinuxCputypeH) {
  // Checked one by one against arch/arm64/include/asm/cputype.h.
  const std::pair<std::uint64_t, std::string> arm[] = {
      {0xd0c, "Neoverse-N1"}, {0xd40, "Neoverse-V1"}, {0xd49, "Neoverse-N2"},
      {0xd4f, "Neoverse-V2"}, {0xd8e, "Neoverse-N3"}, {0xd84, "Neoverse-V3"},
      {0xd85, "Cortex-X925"}, {0xd87, "Cortex-A725"}, {0xd4b, "Cortex-A78C"},
      {0xd41, "Cortex-A78"},  {0xd44, "Cortex-X1"},   {0xd0b, "Cortex-A76"},
      {0xd05, "Cortex-A55"},  {0xd03, "Cortex-A53"},  {0xd08, "Cortex-A72"}};
  for (const auto& [part, name] : arm) EXPECT_EQ(arm_part_name(0x41, part), name) << part;
  EXPECT_EQ(arm_implementer_name(0x41), "Arm");
  EXPECT_EQ(arm_implementer_name(0x61), "Apple");
  EXPECT_EQ(arm_implementer_name(0x4e), "NVIDIA");
  EXPECT_EQ(arm_implementer_name(0xc0), "Ampere");
  EXPECT_EQ(arm_implementer_name(0x48), "HiSilicon");
  EXPECT_EQ(arm_implementer_name(0x12), "");
  EXPECT_EQ(arm_part_name(0x4e, 0xd4f), "");  // part ids belong to their implementer
}

TEST(ProcCpuinfo, Power9) {
  auto info = parse_proc_cpuinfo(
      "processor\t: 0\ncpu\t\t: POWER9 (raw), altivec supported\nclock\t\t: 2300.000000MHz\n"
      "revision\t: 2.2 (pvr 004e 1202)\n\ntimebase\t: 512000000\nplatform\t: PowerNV\n");
  EXPECT_EQ(info.name, "POWER9");
  EXPECT_EQ(info.vendor, "IBM");
  EXPECT_EQ(info.isa_class, "");
}

TEST(ProcCpuinfo, BlocksWithoutBlankLinesStillCount) {
  std::string text;
  for (int i = 0; i < 4; ++i) {
    auto block = arm_block(i, i < 2 ? "0xd85" : "0xd87", "fp asimd");
    text += block.substr(0, block.size() - 1);  // drop the blank line
  }
  EXPECT_EQ(parse_proc_cpuinfo(text).name, "Arm Cortex-X925 x2 + Cortex-A725 x2");
}

// The scan stops after the first x86 block when nothing after it names a CPU
// implementer; where something does, however far on, it reads on and the arm
// blocks decide the name as before.
TEST(ProcCpuinfo, ArmIdsAfterAnX86BlockStillCount) {
  std::string x86(kXeon8480);
  EXPECT_EQ(parse_proc_cpuinfo(x86).name, "Intel(R) Xeon(R) Platinum 8480+");
  std::string text = x86;
  for (int i = 0; i < 50; ++i) text += x86.substr(x86.find("processor\t: 1"));
  text += arm_block(99, "0xd4f", "fp asimd");
  auto info = parse_proc_cpuinfo(text);
  EXPECT_EQ(info.name, "Arm Neoverse-V2");
  EXPECT_EQ(info.vendor, "Intel");  // vendor_id still decides the vendor
  EXPECT_EQ(info.isa_class, parse_proc_cpuinfo(x86).isa_class);
  // Both ids in the first block itself, after its flags.
  std::string same_block =
      x86.substr(0, x86.find("\n\n")) + "\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n\n";
  EXPECT_EQ(parse_proc_cpuinfo(same_block).name, "Arm Neoverse-V2");
  // An implementer with no part in its block is no arm block: the x86 name stays.
  std::string lone =
      x86 + "processor\t: 2\nCPU implementer\t: 0x41\n\n" + "processor\t: 3\nCPU part\t: 0xd4f\n\n";
  EXPECT_EQ(parse_proc_cpuinfo(lone).name, "Intel(R) Xeon(R) Platinum 8480+");
}

TEST(ProcCpuinfo, GarbageGivesEmptyFieldsAndNeverThrows) {
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>((i * 37) & 0xff);
  for (std::string text :
       {std::string(), std::string("\n\n"), std::string("::::"), binary,
        std::string("CPU implementer : 0x41\nCPU part : zz\n"),
        std::string("CPU implementer : 0xffffffffffffffffff\nCPU part : 0xd85\n"),
        std::string(200000, '\n'), std::string(100000, ':')}) {
    auto info = parse_proc_cpuinfo(text);
    EXPECT_EQ(info.isa_class, "");
  }
  EXPECT_EQ(parse_proc_cpuinfo("").name, "");
  // A file cut in the middle of a block keeps what it has.
  std::string cut(kXeon8480.substr(0, kXeon8480.find("stepping")));
  EXPECT_EQ(parse_proc_cpuinfo(cut).name, "Intel(R) Xeon(R) Platinum 8480+");
  EXPECT_EQ(parse_proc_cpuinfo(cut).isa_class, "");
}

}  // namespace
}  // namespace hwaccel
