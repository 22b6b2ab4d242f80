#include "src/catalog/mig_profiles.h"

namespace hwaccel::mig {
namespace {

// NVML_GPU_INSTANCE_PROFILE_*: 1_SLICE 0, 2_SLICE 1, 3_SLICE 2, 4_SLICE 3, 7_SLICE 4,
// 1_SLICE_REV1 7 (the "+me" slice with the media engines), 2_SLICE_REV1 8 (A30's
// 2g+me), 1_SLICE_REV2 9 (a one-slice instance with two memory slices). Placements
// (NVML's possible placements, in memory slices of 8, the same on A100 and H100): a
// 1-slice one at 0..6, the 2-slice 1g at any even start, 2g at 0, 2, 4, 3g at 0 or 4,
// 4g and 7g at 0. The A30 has 4 memory slices and 4 compute slices (its own -lgipp).
// Every memory figure is a multiple of 128 MiB (64 on the A30), so -lgip's two
// decimals name it exactly (tests/unit/catalog/mig_profiles_test.cpp checks each
// round trip).
const std::vector<unsigned> kSevenOnes = {0, 1, 2, 3, 4, 5, 6};

// Columns: index, id, name, slices, instances, SMs, CE, DEC, ENC, JPG, OFA, MiB,
// placement size, starts.

// A100-SXM4-40GB (108 SMs, no NVENC): public `nvidia-smi mig -lgip` outputs of
// A100-SXM4-40GB hosts (4.75 / 9.75 / 19.62 / 39.38 GiB; several public MIG
// walk-throughs print the same rows). The 7g's figure is not the same everywhere:
// an SXM4-40GB on driver 450 (an ALCF ThetaGPU walk-through) and the -lgip beside an
// A100-PCIE-40GB (harvester/pcidevices, pkg/util/gpuhelper/gpuhelper_test.go)
// print 39.50. The PCIe A100s are therefore not matched here (partial tables below).
const MigTable kA100_40 = {"A100 40GB",
                           8,
                           {
                               {0, 19, "1g.5gb", 1, 7, 14, 1, 0, 0, 0, 0, 4864, 1, kSevenOnes},
                               {7, 20, "1g.5gb+me", 1, 1, 14, 1, 1, 0, 1, 1, 4864, 1, kSevenOnes},
                               {9, 15, "1g.10gb", 1, 4, 14, 1, 1, 0, 0, 0, 9984, 2, {0, 2, 4, 6}},
                               {1, 14, "2g.10gb", 2, 3, 28, 2, 1, 0, 0, 0, 9984, 2, {0, 2, 4}},
                               {2, 9, "3g.20gb", 3, 2, 42, 3, 2, 0, 0, 0, 20096, 4, {0, 4}},
                               {3, 5, "4g.20gb", 4, 1, 56, 4, 2, 0, 0, 0, 20096, 4, {0}},
                               {4, 0, "7g.40gb", 7, 1, 98, 7, 5, 0, 1, 1, 40320, 8, {0}},
                           }};

// A100-SXM4-80GB: public -lgip outputs of A100-SXM4-80GB hosts (Kubernetes and
// MIG walk-throughs, 79- and 81-column boxes: 9.50 / 19.50 / 39.25 / 79.00 GiB),
// whose MiB the MIG devices of nvidia-smi's table confirm (1g.10gb, 2g.20gb,
// 3g.40gb: 9728, 19968, 40192 MiB, 14 / 28 / 42 SMs, 0 / 1 / 2 decoders).
// Decoders 0/1/1/1/2/2/5 as on the 40GB: NVIDIA's MIG User Guide gives the A100
// 80GB the 40GB's hardware units under bigger names. (One public output prints
// 2 / 3 / 4 decoders for the 2g, 3g and 4g; the others and the guide decide.) Some
// A100-SXM4-80GB hosts print 78.75 for the 7g (an HGX A100 walk-through; one on
// driver 550.54.14 with the 1g.20gb row), with the same 1g-4g rows: which boards
// or drivers do is not in the sources, so this table keeps the 79.00 most show.
const MigTable kA100_80 = {"A100 80GB",
                           8,
                           {
                               {0, 19, "1g.10gb", 1, 7, 14, 1, 0, 0, 0, 0, 9728, 1, kSevenOnes},
                               {7, 20, "1g.10gb+me", 1, 1, 14, 1, 1, 0, 1, 1, 9728, 1, kSevenOnes},
                               {9, 15, "1g.20gb", 1, 4, 14, 1, 1, 0, 0, 0, 19968, 2, {0, 2, 4, 6}},
                               {1, 14, "2g.20gb", 2, 3, 28, 2, 1, 0, 0, 0, 19968, 2, {0, 2, 4}},
                               {2, 9, "3g.40gb", 3, 2, 42, 3, 2, 0, 0, 0, 40192, 4, {0, 4}},
                               {3, 5, "4g.40gb", 4, 1, 56, 4, 2, 0, 0, 0, 40192, 4, {0}},
                               {4, 0, "7g.80gb", 7, 1, 98, 7, 5, 0, 1, 1, 80896, 8, {0}},
                           }};

// H100 SXM5 80GB (132 SMs, no NVENC): a public `nvidia-smi mig -lgip` of an H100
// 80GB HBM3 (every row: 9.75 / 19.62 / 39.50 / 79.25 GiB); the 3g.40gb, 2g.20gb and
// 1g.10gb rows agree with the recorded -q of fixtures/hosts/h100-mig.yaml (40448,
// 20096, 9984 MiB; 60, 32, 16 SMs; 3/2/1 CE, DEC, JPG).
const MigTable kH100_80 = {"H100 80GB",
                           8,
                           {
                               {0, 19, "1g.10gb", 1, 7, 16, 1, 1, 0, 1, 0, 9984, 1, kSevenOnes},
                               {7, 20, "1g.10gb+me", 1, 1, 16, 1, 1, 0, 1, 1, 9984, 1, kSevenOnes},
                               {9, 15, "1g.20gb", 1, 4, 26, 1, 1, 0, 1, 0, 20096, 2, {0, 2, 4, 6}},
                               {1, 14, "2g.20gb", 2, 3, 32, 2, 2, 0, 2, 0, 20096, 2, {0, 2, 4}},
                               {2, 9, "3g.40gb", 3, 2, 60, 3, 3, 0, 3, 0, 40448, 4, {0, 4}},
                               {3, 5, "4g.40gb", 4, 1, 64, 4, 4, 0, 4, 0, 40448, 4, {0}},
                               {4, 0, "7g.80gb", 7, 1, 132, 8, 7, 0, 7, 1, 81152, 8, {0}},
                           }};

// H100 NVL (94 GB, 132 SMs): a public -lgip of an H100 NVL (driver 570, every row:
// 10.62 / 21.50 / 46.12 / 92.62 GiB; tests/unit/probe/nvidia_smi_mig_test.cpp keeps
// its first rows) and a public MIG device table of 1g.12gb instances (10880 MiB,
// 16 SMs, 1 CE / DEC / JPG).
const MigTable kH100_Nvl = {
    "H100 NVL",
    8,
    {
        {0, 19, "1g.12gb", 1, 7, 16, 1, 1, 0, 1, 0, 10880, 1, kSevenOnes},
        {7, 20, "1g.12gb+me", 1, 1, 16, 1, 1, 0, 1, 1, 10880, 1, kSevenOnes},
        {9, 15, "1g.24gb", 1, 4, 26, 1, 1, 0, 1, 0, 22016, 2, {0, 2, 4, 6}},
        {1, 14, "2g.24gb", 2, 3, 32, 2, 2, 0, 2, 0, 22016, 2, {0, 2, 4}},
        {2, 9, "3g.47gb", 3, 2, 60, 3, 3, 0, 3, 0, 47232, 4, {0, 4}},
        {3, 5, "4g.47gb", 4, 1, 64, 4, 4, 0, 4, 0, 47232, 4, {0}},
        {4, 0, "7g.94gb", 7, 1, 132, 8, 7, 0, 7, 1, 94848, 8, {0}},
    }};

// H200 141GB (SXM, "NVIDIA H200", 132 SMs): a public `nvidia-smi mig -lgip` of an
// eight-GPU H200 host, every row of every GPU the same (16.00 / 32.25 / 69.50 / 139.75
// GiB): https://github.com/NVIDIA/mig-parted/issues/120. Profile names, slices, CE and
// media units agree with NVIDIA's MIG User Guide, "Supported MIG Profiles", H200
// (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html).
// The H200 NVL prints other figures (not seen): not this table.
const MigTable kH200 = {"H200 141GB",
                        8,
                        {
                            {0, 19, "1g.18gb", 1, 7, 16, 1, 1, 0, 1, 0, 16384, 1, kSevenOnes},
                            {7, 20, "1g.18gb+me", 1, 1, 16, 1, 1, 0, 1, 1, 16384, 1, kSevenOnes},
                            {9, 15, "1g.35gb", 1, 4, 26, 1, 1, 0, 1, 0, 33024, 2, {0, 2, 4, 6}},
                            {1, 14, "2g.35gb", 2, 3, 32, 2, 2, 0, 2, 0, 33024, 2, {0, 2, 4}},
                            {2, 9, "3g.71gb", 3, 2, 60, 3, 3, 0, 3, 0, 71168, 4, {0, 4}},
                            {3, 5, "4g.71gb", 4, 1, 64, 4, 4, 0, 4, 0, 71168, 4, {0}},
                            {4, 0, "7g.141gb", 7, 1, 132, 8, 7, 0, 7, 1, 143104, 8, {0}},
                        }};

// H100 PCIe (80 GB, "NVIDIA H100 PCIe", 114 SMs): a public -lgip of a Scaleway H100
// PCIe (driver 570.169, a MIG walk-through: 9.75 / 19.62 / 39.50 / 79.25 GiB, the
// SXM5's memory with fewer SMs: 14 / 14 / 30 / 46 / 62 / 114), whose 1g.10gb MIG
// devices the same walk-through lists at 9984 MiB with 14 SMs.
const MigTable kH100_Pcie = {
    "H100 PCIe",
    8,
    {
        {0, 19, "1g.10gb", 1, 7, 14, 1, 1, 0, 1, 0, 9984, 1, kSevenOnes},
        {7, 20, "1g.10gb+me", 1, 1, 14, 1, 1, 0, 1, 1, 9984, 1, kSevenOnes},
        {9, 15, "1g.20gb", 1, 4, 14, 1, 1, 0, 1, 0, 20096, 2, {0, 2, 4, 6}},
        {1, 14, "2g.20gb", 2, 3, 30, 2, 2, 0, 2, 0, 20096, 2, {0, 2, 4}},
        {2, 9, "3g.40gb", 3, 2, 46, 3, 3, 0, 3, 0, 40448, 4, {0, 4}},
        {3, 5, "4g.40gb", 4, 1, 62, 4, 4, 0, 4, 0, 40448, 4, {0}},
        {4, 0, "7g.80gb", 7, 1, 114, 8, 7, 0, 7, 1, 81152, 8, {0}},
    }};

// GH200 with 96 GB HBM3 ("NVIDIA GH200 480GB", 132 SMs; the MIG User Guide's "H100
// 96GB (H100 on GH200)"): the -lgip of a GH200 in
// kf-cuanschutz/NVIDIA_Grace_Hopper_benchmarking_logs_
// (Daily_installs_loggings/Lessons_learned_from_the_slurm_MIG_installation*.md:
// 11.00 / 23.00 / 46.50 / 93.00 GiB); names, SMs and units as the guide's table.
const MigTable kGH200_96 = {
    "GH200 96GB",
    8,
    {
        {0, 19, "1g.12gb", 1, 7, 16, 1, 1, 0, 1, 0, 11264, 1, kSevenOnes},
        {7, 20, "1g.12gb+me", 1, 1, 16, 1, 1, 0, 1, 1, 11264, 1, kSevenOnes},
        {9, 15, "1g.24gb", 1, 4, 26, 1, 1, 0, 1, 0, 23552, 2, {0, 2, 4, 6}},
        {1, 14, "2g.24gb", 2, 3, 32, 2, 2, 0, 2, 0, 23552, 2, {0, 2, 4}},
        {2, 9, "3g.48gb", 3, 2, 60, 3, 3, 0, 3, 0, 47616, 4, {0, 4}},
        {3, 5, "4g.48gb", 4, 1, 64, 4, 4, 0, 4, 0, 47616, 4, {0}},
        {4, 0, "7g.96gb", 7, 1, 132, 8, 7, 0, 7, 1, 95232, 8, {0}},
    }};

// A30 (24 GB, "NVIDIA A30", 56 SMs; 4 memory and 4 compute slices): the -lgip and
// -lgipp of a public A30 MIG walk-through (driver 535.183.01, 24576 MiB: 5.81 / 11.69
// / 23.44 GiB, ids 14, 21, 5, 6, 0; placements {0,1,2,3}:1, {0,2}:2, {0}:4), whose MIG
// devices it lists at 5952 MiB (1g.6gb, 14 SMs) and 11968 MiB (2g.12gb, 28 SMs).
// The A30's memory comes in 64 MiB steps (both of those are odd multiples of 64), so
// the 4g's "23.44" is 24000 MiB: the one multiple of 64 that prints so (derived, not
// seen). Another public A30 -lgip, without the 2g.12gb+me row (the guide: R525 and
// later), prints the same 1g and 2g rows and 23.50 for the 4g, and the same -lgipp
// (Summer-Lo/Docker_configuration, 000-MIG/README.md); the MIG User Guide's A30 table
// has the same profiles and units.
const std::vector<unsigned> kFourOnes = {0, 1, 2, 3};
const MigTable kA30 = {"A30 24GB",
                       4,
                       {
                           {0, 14, "1g.6gb", 1, 4, 14, 1, 1, 0, 0, 0, 5952, 1, kFourOnes},
                           {7, 21, "1g.6gb+me", 1, 1, 14, 1, 1, 0, 1, 1, 5952, 1, kFourOnes},
                           {1, 5, "2g.12gb", 2, 2, 28, 2, 2, 0, 0, 0, 11968, 2, {0, 2}},
                           {8, 6, "2g.12gb+me", 2, 1, 28, 2, 2, 0, 1, 1, 11968, 2, {0, 2}},
                           {3, 0, "4g.24gb", 4, 1, 56, 4, 4, 0, 1, 1, 24000, 4, {0}},
                       }};

// Partial tables: the rows a public -lgip shows, where the rest of that SKU's
// -lgip was not seen (the PCIe A100s: derived, see there). They size MIG devices
// (mig_sizes_table_for) and nothing else: the simulated NVML and hwsim's -lgip need every row, so
// for them these GPUs stay without a table. A profile not in a row here stays "estimated". Names,
// SMs, CE and media units agree with NVIDIA's MIG User Guide, "Supported MIG Profiles"
// (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html).

// B200 (180 GB, "NVIDIA B200"): the -lgip of NVIDIA/gpu-operator pull 1351
// (2025-03: 1g.23gb 20.50, 1g.45gb and 2g.45gb 44.25 GiB), whose MiB a public
// MIG device table of B200s confirms (NVIDIA/gpu-operator issue 2155: 20992 and
// 45312 MiB, 18 and 36 SMs). An earlier driver printed 22.00 for the 1g.23gb
// (gpu-operator pull 1242, 2025-01); the later figure is the one instances show.
const MigTable kB200 = {"B200 180GB",
                        8,
                        {
                            {0, 19, "1g.23gb", 1, 7, 18, 2, 1, 0, 1, 0, 20992, 1, kSevenOnes},
                            {7, 20, "1g.23gb+me", 1, 1, 18, 2, 1, 0, 1, 1, 20992, 1, kSevenOnes},
                            {9, 15, "1g.45gb", 1, 4, 30, 2, 1, 0, 1, 0, 45312, 2, {0, 2, 4, 6}},
                            {1, 14, "2g.45gb", 2, 3, 36, 4, 2, 0, 2, 0, 45312, 2, {0, 2, 4}},
                        }};

// GB200 (the Blackwell GPU of a GB200 superchip, "NVIDIA GB200"): the -lgip of
// a production GB200 NVL board in NVIDIA/mig-parted issue 227 (2025-08:
// 1g.23gb 22.00, 1g.47gb and 2g.47gb 45.50 GiB). Pre-production HGX GB200 boards
// named the 1g "1g.24gb" at 20.00 GiB (gpu-operator pull 1303): not this table.
const MigTable kGB200 = {"GB200 186GB",
                         8,
                         {
                             {0, 19, "1g.23gb", 1, 7, 18, 2, 1, 0, 1, 0, 22528, 1, kSevenOnes},
                             {7, 20, "1g.23gb+me", 1, 1, 18, 2, 1, 0, 1, 1, 22528, 1, kSevenOnes},
                             {9, 15, "1g.47gb", 1, 4, 32, 2, 1, 0, 1, 0, 46592, 2, {0, 2, 4, 6}},
                             {1, 14, "2g.47gb", 2, 3, 38, 4, 2, 0, 2, 0, 46592, 2, {0, 2, 4}},
                         }};

// GH200 144G HBM3e ("NVIDIA GH200 144G HBM3e", 132 SMs): the -lgip of
// NVIDIA/mig-parted pull 139 (2024-10: 1g.18gb 17.50, 1g.36gb and 2g.36gb 35.25
// GiB). The GH200 with 96 GB HBM3 prints other figures (kGH200_96).
const MigTable kGH200_144 = {
    "GH200 144GB",
    8,
    {
        {0, 19, "1g.18gb", 1, 7, 16, 1, 1, 0, 1, 0, 17920, 1, kSevenOnes},
        {7, 20, "1g.18gb+me", 1, 1, 16, 1, 1, 0, 1, 1, 17920, 1, kSevenOnes},
        {9, 15, "1g.36gb", 1, 4, 26, 1, 1, 0, 1, 0, 36096, 2, {0, 2, 4, 6}},
        {1, 14, "2g.36gb", 2, 3, 32, 2, 2, 0, 2, 0, 36096, 2, {0, 2, 4}},
    }};

// The PCIe A100s: every row but the 7g's, which public outputs of A100s do not
// agree on (39.38 or 39.50 on a 40GB, 79.00 or 78.75 on an 80GB; see the SXM4
// tables). Derived, not seen on a PCIe board for every row: the 1g-4g rows of
// every public -lgip of an A100 40GB (SXM4 hosts, drivers 450-580, and the one
// beside an A100-PCIE-40GB in harvester/pcidevices) are the SXM4-40GB table's, and
// those of every A100 80GB one (SXM4 hosts, drivers 470-550) the SXM4-80GB table's,
// whatever their 7g prints; the PCIe boards are taken to share them.
MigTable below_whole_gpu(const MigTable& whole, const char* family) {
  MigTable out{family, whole.memory_slices, {}};
  for (const GiProfile& p : whole.profiles)
    if (p.id != 0) out.profiles.push_back(p);
  return out;
}
const MigTable kA100Pcie40 = below_whole_gpu(kA100_40, "A100 PCIe 40GB");
const MigTable kA100Pcie80 = below_whole_gpu(kA100_80, "A100 PCIe 80GB");

bool has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Framebuffer sizes (MiB) each table answers for: what the real GPUs report
// (A100 40GB 40536-40960, A100 80GB 81251-81920, H100 80GB and H100 PCIe 81559,
// H100 NVL 95830, H200 143771, GH200 96GB 97871, GH200 144G 146831, A30 24576;
// B200 about 183000 and GB200 about 189000).
bool within(std::uint64_t mib, std::uint64_t low, std::uint64_t high) {
  return mib == 0 || (mib > low && mib < high);
}

}  // namespace

const MigTable* mig_table_for(std::string_view name, std::optional<std::uint64_t> total_bytes) {
  const std::uint64_t mib = total_bytes.value_or(0) >> 20;
  // H100 80GB HBM3 / H100 SXM5 80GB; the H100 PCIe (114 SMs) and H200 differ.
  if (has(name, "H100") && (has(name, "80GB HBM3") || has(name, "SXM5 80GB")) &&
      within(mib, 80000, 82000))
    return &kH100_80;
  if (has(name, "H100 NVL") && within(mib, 93000, 97000)) return &kH100_Nvl;
  if (has(name, "H100 PCIe") && within(mib, 80000, 82000)) return &kH100_Pcie;
  // "NVIDIA GH200 480GB" (96 GB HBM3); the 144G HBM3e one prints other figures.
  if (has(name, "GH200") && !has(name, "144G") && within(mib, 95000, 100000)) return &kGH200_96;
  // "NVIDIA A30" ("A30" before the R470 names); not the A30X, whose MIG was not seen.
  if ((name == "NVIDIA A30" || name == "A30") && within(mib, 23500, 25000)) return &kA30;
  // "NVIDIA H200"; not the GH200 (96 or 144 GB, other tables) nor the H200 NVL.
  if (has(name, "H200") && !has(name, "GH200") && !has(name, "NVL") && within(mib, 140000, 146000))
    return &kH200;
  // The PCIe A100s print other 7g figures (see the tables).
  if (has(name, "A100") && !has(name, "PCIe") && !has(name, "PCIE")) {
    if ((has(name, "SXM4-80GB") || has(name, "80GB")) && within(mib, 80000, 82000))
      return &kA100_80;
    if ((has(name, "SXM4-40GB") || has(name, "40GB")) && within(mib, 39000, 41000))
      return &kA100_40;
  }
  return nullptr;
}

const MigTable* mig_sizes_table_for(std::string_view name,
                                    std::optional<std::uint64_t> total_bytes) {
  if (const MigTable* whole = mig_table_for(name, total_bytes)) return whole;
  const std::uint64_t mib = total_bytes.value_or(0) >> 20;
  // "NVIDIA GB200" before "B200": the one name holds the other.
  if (has(name, "GB200") && within(mib, 180000, 196000)) return &kGB200;
  if (has(name, "B200") && !has(name, "GB200") && within(mib, 175000, 186000)) return &kB200;
  if (has(name, "GH200") && has(name, "144G") && within(mib, 140000, 150000)) return &kGH200_144;
  // "NVIDIA A100-PCIE-40GB", "NVIDIA A100 80GB PCIe".
  if (has(name, "A100") && (has(name, "PCIe") || has(name, "PCIE"))) {
    if (has(name, "80GB") && within(mib, 80000, 82000)) return &kA100Pcie80;
    if (has(name, "40GB") && within(mib, 39000, 41000)) return &kA100Pcie40;
  }
  return nullptr;
}

const std::vector<const MigTable*>& partial_mig_tables() {
  static const std::vector<const MigTable*> tables = {&kB200, &kGB200, &kGH200_144, &kA100Pcie40,
                                                      &kA100Pcie80};
  return tables;
}

const std::vector<const MigTable*>& all_mig_tables() {
  static const std::vector<const MigTable*> tables = {
      &kA100_40, &kA100_80, &kH100_80, &kH100_Nvl, &kH200, &kH100_Pcie, &kGH200_96, &kA30};
  return tables;
}

const GiProfile* gi_profile_by_index(const MigTable& table, unsigned index) {
  for (const auto& p : table.profiles)
    if (p.index == index) return &p;
  return nullptr;
}

const GiProfile* gi_profile_by_id(const MigTable& table, unsigned id) {
  for (const auto& p : table.profiles)
    if (p.id == id) return &p;
  return nullptr;
}

const GiProfile* gi_profile_by_name(const MigTable& table, std::string_view name) {
  if (name.rfind("MIG ", 0) == 0) name.remove_prefix(4);
  // "1c.3g.40gb": a compute instance of one slice in a 3g.40gb GPU instance.
  if (auto dot = name.find('.'); dot != std::string_view::npos && dot > 0 && name[dot - 1] == 'c')
    name.remove_prefix(dot + 1);
  for (const auto& p : table.profiles)
    if (name == p.name) return &p;
  return nullptr;
}

std::string gib_text(std::uint64_t mib) {
  // Hundredths of a GiB, in integers: no dependence on printf's rounding.
  const std::uint64_t scaled = mib * 100;
  std::uint64_t hundredths = scaled / 1024;
  const std::uint64_t rest = scaled % 1024;
  if (rest > 512 || (rest == 512 && hundredths % 2 == 1)) ++hundredths;
  const char cents[] = {'.', static_cast<char>('0' + hundredths % 100 / 10),
                        static_cast<char>('0' + hundredths % 10), '\0'};
  return std::to_string(hundredths / 100) + cents;
}

}  // namespace hwaccel::mig
