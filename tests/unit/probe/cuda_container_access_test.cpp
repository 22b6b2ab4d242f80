// GPUs on the bus that this process may not use, on the shapes real machines
// have: a Kubernetes pod given 2 of a DGX H100's 8 GPUs (sysfs shows all 8; the
// NVIDIA container toolkit mounts only /dev/nvidia0 and /dev/nvidia3 and their
// /proc/driver/nvidia/gpus folders, allows c 195:0 and 195:3 in the device
// cgroup and sets NVIDIA_VISIBLE_DEVICES; nvidia-smi inside lists the 2), a
// Slurm step constrained to its GPUs, a pod given none, and cgroup v2.
#include <gtest/gtest.h>

#include <map>

#include "src/probe/cuda_probe.h"
#include "src/registry/detection.h"
#include "src/registry/selection.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

// The DGX H100's GPUs in bus order (fixtures/hosts/dgx-h100.yaml): bus, UUID.
const std::vector<std::pair<std::string, std::string>> kGpus = {
    {"0000:1b:00.0", "GPU-168fbe87-2a83-b2f1-9874-64cbffc91be1"},
    {"0000:43:00.0", "GPU-fa34bc54-ac55-81f0-4fb8-b61baf77b21e"},
    {"0000:52:00.0", "GPU-bcde7d4e-3c75-1198-e575-422249826f39"},
    {"0000:61:00.0", "GPU-aadc9de4-84bc-0f28-1874-e4df70245c08"},
    {"0000:9d:00.0", "GPU-31738888-160a-124a-1918-044a63674727"},
    {"0000:c3:00.0", "GPU-94e1cba1-6262-1922-eef9-8c758b9c998a"},
    {"0000:d1:00.0", "GPU-829191f9-e085-48b0-51dd-9b18331a8ac0"},
    {"0000:df:00.0", "GPU-e42bc4bd-3aea-b47e-0f5e-41299882ef21"}};

const std::string kPodCgroup = "/kubepods/besteffort/pod5f1c2d7e/0b6d1a9c";
const std::string kPodVisible = kGpus[0].second + "," + kGpus[3].second;

class ContainerHost : public testing::FakeHost {
 public:
  std::map<std::string, std::string> links;
  Result<std::string> readlink(std::string_view path) override {
    if (auto l = links.find(std::string(path)); l != links.end()) return l->second;
    return FakeHost::readlink(path);
  }

  // Every GPU in sysfs, bound to nvidia (a container sees the host's sysfs).
  void bus() {
    for (const auto& [address, uuid] : kGpus) {
      const std::string dir = "/sys/bus/pci/devices/" + address;
      files[dir + "/vendor"] = "0x10de\n";
      files[dir + "/device"] = "0x2330\n";
      files[dir + "/class"] = "0x030200\n";
      links[dir + "/driver"] = "../../../../bus/pci/drivers/nvidia";
    }
  }
  // The module's folder and the device node of GPU `i` (minor = i).
  void module_gpu(std::size_t i) {
    const auto& [address, uuid] = kGpus[i];
    files["/proc/driver/nvidia/gpus/" + address + "/information"] =
        "Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 10\nGPU UUID: \t " + uuid +
        "\nVideo BIOS: \t 96.00.99.00.01\nBus Type: \t PCIe\nBus Location: \t " + address +
        "\nDevice Minor: \t " + std::to_string(i) + "\nGPU Excluded:\t No\n";
    files["/dev/nvidia" + std::to_string(i)] = "";
  }
  // nvidia-smi listing GPUs `shown`, numbered from 0 as inside a container.
  void smi(const std::vector<std::size_t>& shown) {
    std::string out =
        "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free "
        "[MiB], compute_cap, driver_version\n";
    std::string list;
    for (std::size_t n = 0; n < shown.size(); ++n) {
      const auto& [address, uuid] = kGpus[shown[n]];
      std::string bus = "00000000:" + address.substr(5);
      for (auto& c : bus) c = char(std::toupper(static_cast<unsigned char>(c)));
      out += std::to_string(n) + ", " + uuid + ", " + bus +
             ", NVIDIA H100 80GB HBM3, 81559 MiB, 0 MiB, 81007 MiB, 9.0, 550.54.15\n";
      list += "GPU " + std::to_string(n) + ": NVIDIA H100 80GB HBM3 (UUID: " + uuid + ")\n";
    }
    tools[cuda_query_argv(cuda_query_fields())] = exited(0, out);
    tools[cuda_list_argv()] = exited(0, list);
  }
  void cgroup_v1(const std::string& path, const std::string& devices_list) {
    files["/proc/self/cgroup"] = "12:devices:" + path + "\n4:memory:" + path + "\n";
    files["/proc/self/mountinfo"] =
        "1190 1100 0:120 / / rw,relatime master:1 - overlay overlay rw\n"
        "1201 1190 0:31 " +
        path +
        " /sys/fs/cgroup/devices ro,nosuid,nodev,noexec,relatime master:17 - cgroup cgroup "
        "rw,devices\n";
    files["/sys/fs/cgroup/devices/devices.list"] = devices_list;
  }
  static ToolRun exited(int code, std::string out) {
    ToolRun run;
    run.exit_code = code;
    run.out = std::move(out);
    return run;
  }
};

// containerd's defaults, then the toolkit's nvidiactl, nvidia-uvm and GPU rules.
std::string pod_devices_list(const std::vector<int>& minors) {
  std::string list =
      "c 1:5 rwm\nc 1:3 rwm\nc 1:9 rwm\nc 1:8 rwm\nc 5:0 rwm\nc 5:1 rwm\nc *:* m\nb *:* m\n"
      "c 1:7 rwm\nc 136:* rwm\nc 5:2 rwm\nc 10:200 rwm\nc 195:255 rw\nc 508:0 rw\nc 508:1 rw\n";
  for (int m : minors) list += "c 195:" + std::to_string(m) + " rw\n";
  return list;
}

void k8s_pod_two_of_eight(ContainerHost& h) {
  h.bus();
  h.module_gpu(0);
  h.module_gpu(3);
  h.smi({0, 3});
  h.environment["NVIDIA_VISIBLE_DEVICES"] = kPodVisible;
  h.cgroup_v1(kPodCgroup, pod_devices_list({0, 3}));
}

const Entry* by_bus(const ProbeResult& r, const std::string& bus) {
  for (const auto& e : r.entries)
    if (e.pci_bus_id == bus) return &e;
  return nullptr;
}

TEST(CudaContainerAccess, PodWithTwoOfEightH100s) {
  ContainerHost h;
  k8s_pod_two_of_eight(h);
  auto result = CudaProbe().run(h);
  ASSERT_EQ(result.entries.size(), 8u);
  EXPECT_TRUE(result.backend.ready);
  for (std::size_t i = 0; i < kGpus.size(); ++i) {
    const Entry* e = by_bus(result, kGpus[i].first);
    ASSERT_TRUE(e) << kGpus[i].first;
    if (i == 0 || i == 3) {
      EXPECT_EQ(e->status, EntryStatus::ready) << e->pci_bus_id;
      continue;
    }
    EXPECT_EQ(e->status, EntryStatus::unavailable);
    ASSERT_TRUE(e->reason);
    EXPECT_EQ(e->reason->code, ReasonCode::not_visible) << e->reason->detail;
    // The masked /proc folder leaves the GPU's minor unknown: the rules allow
    // exactly the minors of the two GPUs nvidia-smi lists, so not this one.
    EXPECT_EQ(e->reason->detail,
              "not visible to this process: device cgroup allows only c 195:0, c 195:3 "
              "(/sys/fs/cgroup/devices/devices.list), the 2 GPU(s) nvidia-smi lists; "
              "NVIDIA_VISIBLE_DEVICES=" +
                  kPodVisible);
  }
  for (const auto& w : result.warnings)
    EXPECT_EQ(w.message.find("does not list"), std::string::npos) << w.message;
}

TEST(CudaContainerAccess, TheDefaultSelectionNeverPicksAGpuOfAnotherContainer) {
  ContainerHost h;
  k8s_pod_two_of_eight(h);
  h.files["/proc/meminfo"] = "MemTotal:       2112948142 kB\nMemAvailable:   2089978524 kB\n";
  Detection d = detect(h);
  int ready = 0, hidden = 0;
  for (const auto& e : d.entries) {
    if (e.backend != "cuda") continue;
    ready += e.status == EntryStatus::ready;
    hidden += e.reason && e.reason->code == ReasonCode::not_visible;
  }
  EXPECT_EQ(ready, 2);
  EXPECT_EQ(hidden, 6);
  Selection s = select_default(d);
  ASSERT_TRUE(s.entry) << s.reason;
  EXPECT_EQ(d.entries[*s.entry].pci_bus_id, kGpus[0].first);
}

// Without the device cgroup (CDI on cgroup v2, NVIDIA_VISIBLE_DEVICES=void):
// the toolkit's masked /proc/driver/nvidia/gpus still tells.
TEST(CudaContainerAccess, CdiOnCgroupV2TheMaskedProcFolderTells) {
  ContainerHost h;
  h.bus();
  h.module_gpu(0);
  h.module_gpu(3);
  h.smi({0, 3});
  h.environment["NVIDIA_VISIBLE_DEVICES"] = "void";
  h.files["/proc/self/cgroup"] = "0::/\n";
  h.files["/proc/self/mountinfo"] =
      "30 23 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec - cgroup2 cgroup2 rw\n";
  auto result = CudaProbe().run(h);
  const Entry* e = by_bus(result, kGpus[1].first);
  ASSERT_TRUE(e && e->reason);
  EXPECT_EQ(e->reason->code, ReasonCode::not_visible);
  EXPECT_EQ(e->reason->detail,
            "not visible to this process: /proc/driver/nvidia/gpus shows only the 2 GPU(s) "
            "nvidia-smi lists (a container toolkit mounts only the GPUs it gives)");
}

// A Slurm step with ConstrainDevices on cgroup v1: the module shows every GPU
// (no container), the step's devices.list allows two, nvidia-smi lists those.
TEST(CudaContainerAccess, SlurmStepDeviceCgroupDeniesTheOthersByMinor) {
  ContainerHost h;
  h.bus();
  for (std::size_t i = 0; i < kGpus.size(); ++i) h.module_gpu(i);
  h.smi({2, 5});
  h.cgroup_v1("/slurm/uid_1000/job_4242/step_0", "c 195:2 rwm\nc 195:5 rwm\nc 195:255 rwm\n");
  auto result = CudaProbe().run(h);
  ASSERT_EQ(result.entries.size(), 8u);
  const Entry* e = by_bus(result, kGpus[6].first);
  ASSERT_TRUE(e && e->reason);
  EXPECT_EQ(e->reason->code, ReasonCode::not_visible);
  EXPECT_EQ(e->reason->detail,
            "not visible to this process: device cgroup denies c 195:6 "
            "(/sys/fs/cgroup/devices/devices.list)");
  EXPECT_EQ(by_bus(result, kGpus[2].first)->status, EntryStatus::ready);
}

// A pod given no GPU on a GPU node: nvidia-smi finds none, the bus has 8.
TEST(CudaContainerAccess, NoneGivenIsNotVisibleNotNoDevice) {
  ContainerHost h;
  h.bus();
  h.environment["NVIDIA_VISIBLE_DEVICES"] = "none";
  h.tools[cuda_query_argv(cuda_query_fields())] =
      ContainerHost::exited(6, "No devices were found\n");
  auto result = CudaProbe().run(h);
  ASSERT_EQ(result.entries.size(), 8u);
  for (const auto& e : result.entries) {
    ASSERT_TRUE(e.reason);
    EXPECT_EQ(e.reason->code, ReasonCode::not_visible);
    EXPECT_EQ(e.reason->detail,
              "not visible to this process: NVIDIA_VISIBLE_DEVICES=none (the container was "
              "given no GPU)");
  }
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::not_visible);
}

// What nothing explains stays a failure; under cgroup v2 it says the rules are
// unreadable. A GPU the container asked for (its UUID in the list) that
// nvidia-smi does not list is a failure too, not "not visible".
TEST(CudaContainerAccess, UnexplainedStaysAFailureAndSaysWhatCannotBeRead) {
  ContainerHost h;
  h.bus();
  for (std::size_t i = 0; i < kGpus.size(); ++i) h.module_gpu(i);
  h.smi({0, 1, 2, 3, 4, 5, 6});
  h.files["/proc/self/cgroup"] = "0::/user.slice/user-1000.slice/session-4.scope\n";
  h.files["/proc/self/mountinfo"] =
      "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec - cgroup2 cgroup2 rw\n";
  auto result = CudaProbe().run(h);
  const Entry* e = by_bus(result, kGpus[7].first);
  ASSERT_TRUE(e && e->reason);
  EXPECT_EQ(e->reason->code, ReasonCode::probe_failed);
  EXPECT_NE(e->reason->detail.find("nvidia-smi does not list it; cgroup v2 "
                                   "/user.slice/user-1000.slice/session-4.scope: device access "
                                   "is an eBPF program"),
            std::string::npos)
      << e->reason->detail;

  ContainerHost asked;
  k8s_pod_two_of_eight(asked);
  asked.module_gpu(5);  // its folder is there and its UUID is in the list: it was given
  asked.environment["NVIDIA_VISIBLE_DEVICES"] = kPodVisible + "," + kGpus[5].second;
  asked.files["/sys/fs/cgroup/devices/devices.list"] = pod_devices_list({0, 3, 5});
  auto given = CudaProbe().run(asked);
  const Entry* g = by_bus(given, kGpus[5].first);
  ASSERT_TRUE(g && g->reason);
  EXPECT_EQ(g->reason->code, ReasonCode::probe_failed) << g->reason->detail;
}

}  // namespace
}  // namespace hwaccel
