#include "src/system/runtime_env.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"

namespace hwaccel {
namespace {

TEST(RuntimeEnv, CgroupMarkers) {
  auto docker = parse_proc1_cgroup(
      "12:pids:/docker/3f1c0e9b5d2a7c4e8f6b1a0d9c8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e\n"
      "0::/docker/3f1c0e9b5d2a7c4e8f6b1a0d9c8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e\n");
  EXPECT_EQ(docker.container, "docker");
  EXPECT_FALSE(docker.kubernetes);
  auto k8s = parse_proc1_cgroup(
      "0::/kubepods.slice/kubepods-burstable.slice/"
      "kubepods-burstable-pod5f8c1f6e_2b7a_4c1d_9e3f_0a1b2c3d4e5f.slice/"
      "cri-containerd-9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c.scope\n");
  EXPECT_EQ(k8s.container, "containerd");
  EXPECT_TRUE(k8s.kubernetes);
  EXPECT_EQ(parse_proc1_cgroup("0::/machine.slice/libpod-1a2b3c.scope/container\n").container,
            "podman");
  EXPECT_EQ(parse_proc1_cgroup("0::/system.slice/docker-1a2b3c.scope\n").container, "docker");
  EXPECT_EQ(parse_proc1_cgroup("0::/lxc.payload.web1\n").container, "lxc");
  auto host = parse_proc1_cgroup("0::/init.scope\n");
  EXPECT_EQ(host.container, "");
  EXPECT_FALSE(host.kubernetes);
  EXPECT_EQ(parse_proc1_cgroup("0::/\n").container, "");  // cgroup v2 namespace: says nothing
  EXPECT_EQ(parse_proc1_cgroup("garbage").container, "");
}

TEST(RuntimeEnv, HypervisorFlag) {
  EXPECT_EQ(cpuinfo_hypervisor_flag("processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n"),
            true);
  EXPECT_EQ(cpuinfo_hypervisor_flag("processor\t: 0\nflags\t\t: fpu vme lahf_lm\n"), false);
  EXPECT_EQ(cpuinfo_hypervisor_flag("processor\t: 0\nFeatures\t: fp asimd\n"), std::nullopt);
}

TEST(RuntimeEnv, DmiClouds) {
  auto aws = classify_dmi({"Amazon EC2", "p5.48xlarge", "Amazon EC2", "Amazon EC2", "Amazon EC2"});
  EXPECT_EQ(aws.cloud, "aws");
  EXPECT_EQ(aws.instance_type, "p5.48xlarge");
  EXPECT_EQ(aws.virtual_machine, true);
  auto metal = classify_dmi({"Amazon EC2", "i4i.metal", "Amazon EC2", "Amazon EC2", ""});
  EXPECT_EQ(metal.virtual_machine, false);
  auto gcp = classify_dmi({"Google", "Google Compute Engine", "Google", "Google", ""});
  EXPECT_EQ(gcp.cloud, "gcp");
  EXPECT_EQ(gcp.instance_type, "");
  auto azure = classify_dmi({"Microsoft Corporation", "Virtual Machine", "Microsoft Corporation",
                             "Microsoft Corporation", kAzureAssetTag});
  EXPECT_EQ(azure.cloud, "azure");
  EXPECT_EQ(azure.hypervisor, "Hyper-V");
  auto hyperv = classify_dmi({"Microsoft Corporation", "Virtual Machine", "Microsoft Corporation",
                              "Microsoft Corporation", "1234-5678"});
  EXPECT_EQ(hyperv.cloud, "");
  EXPECT_EQ(hyperv.virtual_machine, true);
  auto oci =
      classify_dmi({"QEMU", "Standard PC (i440FX + PIIX, 1996)", "", "SeaBIOS", "OracleCloud.com"});
  EXPECT_EQ(oci.cloud, "oci");
  EXPECT_EQ(oci.virtual_machine, true);
  EXPECT_EQ(classify_dmi({"VMware, Inc.", "VMware Virtual Platform", "Intel Corporation",
                          "Phoenix Technologies LTD", "No Asset Tag"})
                .hypervisor,
            "VMware");
  EXPECT_EQ(classify_dmi({"QEMU", "KVM", "", "", ""}).hypervisor, "KVM");
  auto server = classify_dmi({"NVIDIA", "DGXH100", "NVIDIA", "American Megatrends Inc.", ""});
  EXPECT_EQ(server.cloud, "");
  EXPECT_EQ(server.virtual_machine, std::nullopt);
}

TEST(RuntimeEnv, DockerOnAwsAndTheLine) {
  Snapshot s;
  s.files["/.dockerenv"] = FileEntry::of_content("");
  s.files["/proc/1/cgroup"] = FileEntry::of_content("0::/\n");
  s.files["/sys/class/dmi/id/sys_vendor"] = FileEntry::of_content("Amazon EC2\n");
  s.files["/sys/class/dmi/id/product_name"] = FileEntry::of_content("m7i.xlarge\n");
  s.files["/sys/class/dmi/id/bios_vendor"] = FileEntry::of_error(EACCES);
  s.files["/proc/cpuinfo"] = FileEntry::of_content("processor\t: 0\nflags\t\t: fpu hypervisor\n");
  SnapshotHost host(s);
  std::vector<Warning> w;
  auto env = detect_runtime_environment(host, w);
  EXPECT_EQ(env.container, "docker");
  EXPECT_EQ(env.cloud, "aws");
  EXPECT_EQ(runtime_environment_text(env), "docker container, aws m7i.xlarge VM (Nitro)");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].message, "/sys/class/dmi/id/bios_vendor: EACCES");
}

TEST(RuntimeEnv, KubernetesAndBareMetalAndUnknown) {
  Snapshot s;
  s.env["KUBERNETES_SERVICE_HOST"] = "10.96.0.1";
  s.files["/proc/cpuinfo"] = FileEntry::of_content("processor\t: 0\nflags\t\t: fpu sse2\n");
  SnapshotHost host(s);
  std::vector<Warning> w;
  auto env = detect_runtime_environment(host, w);
  EXPECT_EQ(runtime_environment_text(env), "container in kubernetes, bare metal");

  SnapshotHost empty(Snapshot{});
  EXPECT_EQ(runtime_environment_text(detect_runtime_environment(empty, w)),
            "unknown (no DMI, no CPU flags)");
  EXPECT_TRUE(w.empty());
}

}  // namespace
}  // namespace hwaccel

namespace hwaccel {
namespace {

TEST(RuntimeEnv, Arm64WithAServerVendorIsBareMetalAndWithQemuAVm) {
  Snapshot s;
  s.files["/proc/cpuinfo"] = FileEntry::of_content("processor\t: 0\nFeatures\t: fp asimd\n");
  s.files["/sys/class/dmi/id/sys_vendor"] = FileEntry::of_content("NVIDIA\n");
  std::vector<Warning> w;
  SnapshotHost metal(s);
  EXPECT_EQ(runtime_environment_text(detect_runtime_environment(metal, w)), "bare metal");
  s.files["/sys/class/dmi/id/sys_vendor"] = FileEntry::of_content("QEMU\n");
  s.files["/sys/class/dmi/id/product_name"] = FileEntry::of_content("KVM Virtual Machine\n");
  SnapshotHost vm(s);
  EXPECT_EQ(runtime_environment_text(detect_runtime_environment(vm, w)), "VM (KVM)");
}

}  // namespace
}  // namespace hwaccel
