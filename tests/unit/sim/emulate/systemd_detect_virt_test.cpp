// systemd-detect-virt answers from the recorded host, never from this machine's
// CPU: bare metal is "none" (exit 1), a VM names its hypervisor in systemd's words.
#include "sim/emulate/systemd_detect_virt.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/system/runtime_env.h"
#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

ToolAnswer detect_virt(const testing::HostCase& c, std::vector<std::string> argv) {
  return emulate_systemd_detect_virt(c.host(), argv);
}

RuntimeEnvironment environment_of(const Snapshot& snapshot) {
  SnapshotHost host(snapshot);
  std::vector<Warning> ignored;
  return detect_runtime_environment(host, ignored);
}

TEST(SystemdDetectVirt, EveryLinuxFixtureAnswersAsItsRecordedMachine) {
  int bare_metal = 0, vms = 0;
  for (const auto& name : hwaccel::testing::fixture_host_names()) {
    auto c = testing::load_host(name);
    ASSERT_TRUE(c) << name;
    if (c->snapshot.facts.os == "darwin") continue;
    const RuntimeEnvironment env = environment_of(c->snapshot);
    ToolAnswer vm = detect_virt(*c, {"systemd-detect-virt", "--vm"});
    if (env.virtual_machine == true) {
      ++vms;
      EXPECT_EQ(vm.exit_code, 0) << name;
      EXPECT_NE(vm.out, "none\n") << name;
    } else {
      ++bare_metal;
      EXPECT_EQ(vm.out, "none\n") << name << " (this machine's hypervisor must not show)";
      EXPECT_EQ(vm.exit_code, 1) << name;
    }
    ToolAnswer any = detect_virt(*c, {"systemd-detect-virt"});
    const std::string container = systemd_container_id(c->snapshot);
    EXPECT_EQ(any.out,
              (container != "none" ? container : vm.out.substr(0, vm.out.size() - 1)) + "\n")
        << name;
    ToolAnswer quiet = detect_virt(*c, {"systemd-detect-virt", "-q"});
    EXPECT_EQ(quiet.out, "") << name;
    EXPECT_EQ(quiet.exit_code, any.exit_code) << name;
  }
  EXPECT_GE(bare_metal, 10);
  EXPECT_GE(vms, 1);
}

TEST(SystemdDetectVirt, ACloudVmInDockerSaysDockerThenAmazon) {
  auto c = testing::load_host("aws-p5-docker");
  ASSERT_TRUE(c);
  EXPECT_EQ(detect_virt(*c, {"systemd-detect-virt"}).out, "docker\n");
  EXPECT_EQ(detect_virt(*c, {"systemd-detect-virt", "-c"}).out, "docker\n");
  ToolAnswer vm = detect_virt(*c, {"systemd-detect-virt", "--vm"});
  EXPECT_EQ(vm.out, "amazon\n");
  EXPECT_EQ(vm.exit_code, 0);
}

TEST(SystemdDetectVirt, HypervisorsInSystemdsWords) {
  RuntimeEnvironment env;
  EXPECT_EQ(systemd_vm_id(env), "none") << "not known";
  env.virtual_machine = false;
  EXPECT_EQ(systemd_vm_id(env), "none");
  env.virtual_machine = true;
  EXPECT_EQ(systemd_vm_id(env), "vm-other") << "the CPU flag alone";
  for (const auto& [hypervisor, id] :
       std::vector<std::pair<std::string, std::string>>{{"KVM", "kvm"},
                                                        {"QEMU", "qemu"},
                                                        {"Hyper-V", "microsoft"},
                                                        {"VMware", "vmware"},
                                                        {"VirtualBox", "oracle"},
                                                        {"Xen", "xen"},
                                                        {"Nitro", "amazon"}}) {
    env.hypervisor = hypervisor;
    EXPECT_EQ(systemd_vm_id(env), id) << hypervisor;
  }
  env.hypervisor = "KVM";
  env.cloud = "gcp";
  EXPECT_EQ(systemd_vm_id(env), "google");
}

TEST(SystemdDetectVirt, OptionsAndErrorsAsSystemd252) {
  auto c = testing::load_host("dgx-h100");
  ASSERT_TRUE(c);
  ToolAnswer list = detect_virt(*c, {"systemd-detect-virt", "--list"});
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_EQ(list.out.substr(0, 14), "none\nkvm\namazo");
  EXPECT_NE(list.out.find("\ncontainer-other\n"), std::string::npos);
  ToolAnswer bogus = detect_virt(*c, {"systemd-detect-virt", "--bogus"});
  EXPECT_EQ(bogus.exit_code, 1);
  EXPECT_EQ(bogus.err, "systemd-detect-virt: unrecognized option '--bogus'\n");
  ToolAnswer extra = detect_virt(*c, {"systemd-detect-virt", "extra"});
  EXPECT_EQ(extra.err, "systemd-detect-virt takes no arguments.\n");
  EXPECT_EQ(detect_virt(*c, {"systemd-detect-virt", "-qv"}).out, "");
  EXPECT_EQ(detect_virt(*c, {"systemd-detect-virt", "-qv"}).exit_code, 1);
  EXPECT_EQ(detect_virt(*c, {"systemd-detect-virt", "--chroot"}).exit_code, 1);
  EXPECT_NE(detect_virt(*c, {"systemd-detect-virt", "--help"}).out.find("--private-users"),
            std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
