// Redaction of one text at a time: the identifier shapes of issue 18 (items
// 12 and 18), what is kept because the probes need it on replay, the rules for
// environment values, and the sizes that crashed the regex engine.
#include <gtest/gtest.h>

#include "src/host/redaction.h"

namespace hwaccel {
namespace {

std::string redact_tool_output(const std::string& out, const std::string& hostname = "") {
  Snapshot s;
  s.facts.hostname = hostname;
  ToolEntry t;
  t.argv = {"tool"};
  t.run.out = out;
  s.tools[t.argv] = t;
  redact(s);
  return s.tools.at(t.argv).run.out;
}

std::string redact_file(const std::string& path, const std::string& bytes) {
  Snapshot s;
  s.files[path] = FileEntry::of_content(bytes);
  redact(s);
  return s.files.begin()->second.bytes;
}

// Item 12: `Serial Number: ` and a 30 KB token overflowed std::regex's
// recursion (SIGSEGV); a 10 MB one must be as harmless.
TEST(RedactionShapes, HugeSerialTokensAreRedactedWithoutCrashing) {
  for (std::size_t size : {std::size_t(30) * 1024, std::size_t(10) * 1024 * 1024}) {
    std::string token(size, 'Z');
    token[size / 2] = '7';
    std::string out = redact_tool_output("    Serial Number : " + token + "\nnext line\n");
    EXPECT_EQ(out.find("ZZZZ"), std::string::npos) << size;
    EXPECT_EQ(out, "    Serial Number : REDACTED-SERIAL-1\nnext line\n") << size;
  }
  // A 10 MB hex word and a 10 MB colon run are linear too.
  std::string hex(10 * 1024 * 1024, 'a');
  EXPECT_EQ(redact_tool_output(hex).find("aaaa"), std::string::npos);
  std::string colons;
  for (int i = 0; i < 1000000; ++i) colons += "ab:";
  EXPECT_EQ(redact_tool_output(colons + "cd").size(), colons.size() + 2);
}

// Item 18: the misses, each in the form a tool prints it.
TEST(RedactionShapes, SerialKeysInAnyCaseAndSpelling) {
  std::string out = redact_tool_output(
      "Board serial: BRD-SN-7731X\nserial: QX81-22Z9\nS/N: SNQ4410077\nSN=77123ABC\n"
      "\"serialNumber\": \"NRN-99812\", \"model\": \"inf2\"\nID_SERIAL_SHORT=S6EWNS0T1234\n");
  for (const char* secret :
       {"BRD-SN-7731X", "QX81-22Z9", "SNQ4410077", "77123ABC", "NRN-99812", "S6EWNS0T1234"})
    EXPECT_EQ(out.find(secret), std::string::npos) << secret << " in\n" << out;
  EXPECT_NE(out.find("\"model\": \"inf2\""), std::string::npos) << out;
  EXPECT_NE(out.find("Board serial: REDACTED-SERIAL-"), std::string::npos) << out;
}

TEST(RedactionShapes, MacsUuidsAndGuidsInEveryForm) {
  std::string out = redact_tool_output(
      "a 3C-FD-FE-A1-B2-C3 b 3cfdfea1b2c3 c 3c:fd:fe:a1:b2:c3\n"
      "\tdeviceUUID = 8f6e3c2a1b4d4e5f9a7b0c1d2e3f4a5b\n"
      "GPU-8f6e3c2a-1b4d-4e5f-9a7b-0c1d2e3f4a5b\n"
      "Node GUID: 0x0002c903000a1b2c\nnode_guid: 0002:c903:000a:1b2c\n");
  // One device, one pseudonym, in every spelling.
  EXPECT_EQ(out,
            "a 02-00-00-00-00-01 b 020000000001 c 02:00:00:00:00:01\n"
            "\tdeviceUUID = 00000000000040008000000000000001\n"
            "GPU-00000000-0000-4000-8000-000000000001\n"
            "Node GUID: 0x0200000000000001\nnode_guid: 0200:0000:0000:0001\n");
}

TEST(RedactionShapes, PodUidsAndContainerIdsInCgroupAndMountinfo) {
  const std::string id = "4f3c2b1a09e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2";
  std::string cgroup =
      "0::/kubepods.slice/kubepods-besteffort-pod1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5d.slice/"
      "cri-containerd-" +
      id + ".scope\n12:memory:/kubepods/burstable/pod7e8f9a0b-1c2d-4e3f-8a9b-0c1d2e3f4a5b/" + id +
      "\n";
  std::string out = redact_file("/proc/1/cgroup", cgroup);
  EXPECT_EQ(out.find("1a2b3c4d"), std::string::npos) << out;
  EXPECT_EQ(out.find("7e8f9a0b"), std::string::npos) << out;
  EXPECT_EQ(out.find("4f3c2b1a"), std::string::npos) << out;
  // What runtime_env reads stays: the markers and the shape.
  EXPECT_EQ(out.substr(0, 47), "0::/kubepods.slice/kubepods-besteffort-pod00000") << out;
  EXPECT_NE(out.find("_4000_8000_"), std::string::npos) << out;
  EXPECT_NE(out.find(".slice/cri-containerd-0000"), std::string::npos) << out;
  std::string mounts = redact_file("/proc/self/mountinfo",
                                   "812 790 0:52 / / rw - overlay overlay rw,lowerdir=/var/lib/"
                                   "docker/overlay2/" +
                                       id + "/diff\n");
  EXPECT_EQ(mounts.find(id), std::string::npos) << mounts;
}

TEST(RedactionShapes, AddressesOnAnyLineButVersionsStay) {
  std::string out = redact_tool_output(
      "reached 10.20.30.41 in 3 ms via fd00:1234:5678::42\n"
      "driver 2.19.64.0\nVBIOS Version : 96.00.74.00.01\nDriver Version : 550.127.05\n"
      "loopback 127.0.0.1 ::1\n");
  EXPECT_EQ(out.find("10.20.30.41"), std::string::npos) << out;
  EXPECT_EQ(out.find("fd00:1234"), std::string::npos) << out;
  EXPECT_NE(out.find("driver 2.19.64.0"), std::string::npos) << out;
  EXPECT_NE(out.find("96.00.74.00.01"), std::string::npos) << out;
  EXPECT_NE(out.find("550.127.05"), std::string::npos) << out;
  EXPECT_NE(out.find("127.0.0.1 ::1"), std::string::npos) << out;
  EXPECT_EQ(redact_file("/sys/module/neuron/version", "2.24.7.0\n"), "2.24.7.0\n");
}

// What the probes read on replay is not identity and must stay byte for byte.
TEST(RedactionShapes, KeepsWhatProbesNeed) {
  const std::string smi =
      "GPU 00000000:3B:00.0\n    Bus Id : 00000000:3B:00.0\n    Device Id : 0x233010DE\n"
      "    Board ID : 0x3b00\n    Minor Number : 3\n    Total : 81559 MiB\n"
      "0, 0000:3b:00.0, 0x10de, 0x2330, 206158430208, 85899345920, 1\n"
      "cpus 0-55,112-167 numa_node 1 local_cpus ffffffff,ffffffff\n"
      "timestamp 10:20:30 on 2025-01-06\n"
      "0::/\n";
  EXPECT_EQ(redact_tool_output(smi), smi);
  const std::string cpuinfo =
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmicrocode\t: 0x2b000590\n"
      "flags\t\t: fpu vme de pse tsc msr\naddress sizes\t: 46 bits physical, 57 bits virtual\n";
  EXPECT_EQ(redact_file("/proc/cpuinfo", cpuinfo), cpuinfo);
  EXPECT_EQ(redact_file("/sys/bus/pci/devices/0000:3b:00.0/vendor", "0x10de\n"), "0x10de\n");
}

// Environment values: kept only by a rule; user names found outside /home.
TEST(RedactionShapes, EnvironmentValuesKeepOnlyWhatTheirRuleAllows) {
  Snapshot s;
  s.env["HOME"] = "/srv/alice";
  s.env["USER"] = "jenkins";
  s.env["PATH"] = "/var/lib/jenkins/bin:/srv/alice/.local/bin:/usr/local/bin:/usr/bin";
  s.env["XDG_DATA_HOME"] = "/srv/alice/.local/share";
  s.env["CUDA_VISIBLE_DEVICES"] = "0,GPU-8f6e3c2a-1b4d-4e5f-9a7b-0c1d2e3f4a5b";
  s.env["KUBERNETES_SERVICE_HOST"] = "10.96.0.1";
  s.env["container"] = "podman";
  s.env["HWACCEL_RESERVE_BYTES"] = "4G";
  s.env["SOME_TOKEN"] = "ghp_secret";
  s.env["EMPTY"] = "";
  s.files["/srv/alice/.local/share/vulkan/icd.d"] = FileEntry::of_absent();
  redact(s);
  EXPECT_EQ(s.env.at("HOME"), "/srv/user-1");
  EXPECT_EQ(s.env.at("USER"), "user-2");
  EXPECT_EQ(s.env.at("PATH"), "/var/lib/user-2/bin:/srv/user-1/.local/bin:/usr/local/bin:/usr/bin");
  EXPECT_EQ(s.env.at("XDG_DATA_HOME"), "/srv/user-1/.local/share");
  EXPECT_EQ(s.env.at("CUDA_VISIBLE_DEVICES"), "0,GPU-00000000-0000-4000-8000-000000000001");
  EXPECT_EQ(s.env.at("KUBERNETES_SERVICE_HOST"), "192.0.2.1");
  EXPECT_EQ(s.env.at("container"), "podman");
  EXPECT_EQ(s.env.at("HWACCEL_RESERVE_BYTES"), "4G");
  EXPECT_EQ(s.env.at("SOME_TOKEN"), "REDACTED-1");
  EXPECT_EQ(s.env.at("EMPTY"), "");
  // The file key follows the variable, so that replay looks where it was recorded.
  EXPECT_TRUE(s.files.count("/srv/user-1/.local/share/vulkan/icd.d"));
  EXPECT_EQ(env_rule("XDG_CONFIG_DIRS"), EnvRule::paths);
  EXPECT_EQ(env_rule("ANYTHING_ELSE"), EnvRule::replaced);
  // root is nobody in particular.
  Snapshot r;
  r.env["HOME"] = "/root";
  r.env["USER"] = "root";
  redact(r);
  EXPECT_EQ(r.env.at("HOME"), "/root");
  EXPECT_EQ(r.env.at("USER"), "root");
}

TEST(RedactionShapes, RedactingTwiceChangesNothing) {
  Snapshot s;
  s.facts.hostname = "gpunode17";
  s.env["HOME"] = "/srv/alice";
  s.files["/etc/hosts"] = FileEntry::of_content("10.1.2.3 gpunode17\nfd00::17 gpunode17\n");
  s.files["/sys/class/dmi/id/board_serial"] = FileEntry::of_content(".5JZP2K3.CNFCP0022B00AB.\n");
  s.files["/sys/class/dmi/id/product_serial"] = FileEntry::of_content("1650123000999\n");
  ToolEntry t;
  t.argv = {"tool"};
  t.run.out = "S/N: 3cfdfea1b2c4\nSerial: 1234\nGPU-8f6e3c2a-1b4d-4e5f-9a7b-0c1d2e3f4a5b\n";
  s.tools[t.argv] = t;
  redact(s);
  Snapshot again = s;
  redact(again);
  EXPECT_TRUE(again == s);
}

// What tests/fuzz/redaction_fuzz.cpp found (inputs in tests/fuzz/regressions/redaction/).
TEST(RedactionShapes, FuzzFindingsAreFixedPoints) {
  // Twelve hex digits whose last eight start a UUID: the UUID wins, else the
  // second pass found a new one inside the MAC pseudonym.
  std::string once = redact_tool_output("GPU-4b2e7c9d10ab-4d1b-46c8-8f5a-0c1d2e3f4a5b\n");
  EXPECT_EQ(once, "GPU-4b2e00000000-0000-4000-8000-000000000001\n");
  EXPECT_EQ(redact_tool_output(once), once);
  EXPECT_EQ(once.find("7c9d10ab"), std::string::npos) << once;
  // A serial with dashes becomes a label: shaped into zeros, it held a UUID
  // of zeros ("...-0000-0000-0000-000000000003") that the next pass replaced.
  std::string serial = redact_tool_output(
      "driverUUID = 12345678-1234-1234-123456789-1234-1234-1234-123456789abc)\n");
  EXPECT_EQ(serial, "driverUUID = REDACTED-SERIAL-1)\n");
  EXPECT_EQ(redact_tool_output(serial), serial);
  // HOME's last folder is a user name only when it is a login name: here it
  // was "-f-<hex>", redacted to "-f-000...1", which the next pass took for one.
  Snapshot h;
  h.env["HOME"] = "/x/-f-4f3c2b1a09e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2";
  redact(h);
  Snapshot h2 = h;
  redact(h2);
  EXPECT_TRUE(h2 == h) << h.env.at("HOME") << " -> " << h2.env.at("HOME");
  // "GPU-0" after a UUID key is an index, not an identifier.
  EXPECT_EQ(redact_tool_output("GPU 0: NVIDIA H200 (UUID: GPU-0)\n"),
            "GPU 0: NVIDIA H200 (UUID: GPU-0)\n");
  // A KUBERNETES_* value that is not an address (here the hostname) is
  // replaced whole, not rewritten to "host-1\n" and replaced on the next pass.
  Snapshot s;
  s.facts.hostname = "ASUS";
  s.env["KUBERNETES_SERVICE_HOST"] = "ASUS\n";
  redact(s);
  EXPECT_EQ(s.env.at("KUBERNETES_SERVICE_HOST"), "REDACTED-1");
  Snapshot again = s;
  redact(again);
  EXPECT_TRUE(again == s);
}

}  // namespace
}  // namespace hwaccel
