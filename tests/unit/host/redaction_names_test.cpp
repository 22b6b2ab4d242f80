// The identifier classes of redaction_names.h, each on the spellings real tools
// print, and what each must leave alone (the property test of the classes is
// tests/prop/redaction_classes_prop_test.cpp).
#include "src/host/redaction_names.h"

#include <gtest/gtest.h>

#include "src/host/redaction.h"

namespace hwaccel {
namespace {

using redaction::Pseudonyms;

std::string redact_output(const std::string& out, const std::string& hostname = "",
                          const std::string& user = "") {
  Snapshot s;
  s.facts.hostname = hostname;
  if (!user.empty()) s.env["USER"] = user;
  ToolEntry t;
  t.argv = {"tool"};
  t.run.out = out;
  s.tools[t.argv] = t;
  redact(s);
  return s.tools.at(t.argv).run.out;
}

TEST(RedactionNames, MacsInSwitchAndBareNotations) {
  Pseudonyms names;
  EXPECT_EQ(redaction::macs_by_notation("port 3cfd.fea1.b2c7 up, 3CFD-FEA1-B2C7\n", names),
            "port 0200.0000.0001 up, 0200-0000-0001\n");
  EXPECT_EQ(redaction::macs_by_notation("HWaddr 001122334455\nlink/ether aabbccddeeff brd", names),
            "HWaddr 020000000002\nlink/ether 020000000003 brd");
  // All digits in groups of four: a MAC only on a line that says so.
  EXPECT_EQ(redaction::macs_by_notation("build 1234.5678.9012\n", names), "build 1234.5678.9012\n");
  EXPECT_EQ(redaction::macs_by_notation("mac 1234.5678.9012\n", names), "mac 0200.0000.0004\n");
  // Twelve bare digits without a MAC word are a number (206158430208 bytes).
  EXPECT_EQ(redaction::macs_by_notation("Total 206158430208\n", names), "Total 206158430208\n");
  EXPECT_EQ(redaction::macs_by_notation("a 1234-5678-9abc-def0 b\n", names),
            "a 1234-5678-9abc-def0 b\n");
  EXPECT_EQ(redaction::bare_mac_file("001122334455\n", names), "020000000002\n");
  EXPECT_EQ(redaction::bare_mac_file("00:11:22:33:44:55\n", names), "00:11:22:33:44:55\n");
}

TEST(RedactionNames, CloudInternalNamesAndAddressesInNames) {
  Pseudonyms names;
  EXPECT_EQ(redaction::internal_host_names(
                "ip-10-0-1-23.ec2.internal ip-10-0-1-24.us-west-2.compute.internal "
                "vm7.us-central1-a.c.my-project.internal web.abcdef.bx.internal.cloudapp.net",
                names),
            "host-1.ec2.internal host-2.compute.internal host-3.internal "
            "host-4.internal.cloudapp.net");
  EXPECT_EQ(redaction::internal_host_names(
                "metadata.google.internal host.docker.internal host-1.ec2.internal", names),
            "metadata.google.internal host.docker.internal host-1.ec2.internal");
  EXPECT_EQ(redaction::internal_host_names("an internal error, module.internals", names),
            "an internal error, module.internals");
  EXPECT_EQ(redaction::dashed_addresses("ip-10-0-1-23 EC2-54-1-2-3 10-0-1-24.default.pod", names),
            "ip-192-0-2-1 EC2-192-0-2-2 192-0-2-3.default.pod");
  // Dates and ranges are no addresses; loopback and ours are kept.
  EXPECT_EQ(redaction::dashed_addresses("2024-01-06-12 cpus 0-55 10-20-30-40 ip-127-0-0-1", names),
            "2024-01-06-12 cpus 0-55 10-20-30-40 ip-127-0-0-1");
}

TEST(RedactionNames, PodNamesOfDeployments) {
  Pseudonyms names;
  EXPECT_EQ(
      redaction::pod_names("pod web-7d4b9c8f6d-x2k9p and api-v2-5c9b8d7f6-zq4wm on node", names),
      "pod host-1 and host-2 on node");
  EXPECT_EQ(redaction::pod_names("old nginx-3453457584-tb4r7", names), "old host-3");
  // Words, versions and tool names are not pod names (vowels, no hash).
  EXPECT_EQ(
      redaction::pod_names("nvidia-smi-query driver-550-54 cuda-12-4-0 ab-cdfghj-klmna", names),
      "nvidia-smi-query driver-550-54 cuda-12-4-0 ab-cdfghj-klmna");
}

TEST(RedactionNames, UserNamesAsWords) {
  Pseudonyms names;
  std::set<std::string, std::less<>> users = {"alice", "ubuntu"};
  EXPECT_EQ(redaction::user_words("alice 1234 python3 (alice) malice alice-laptop", users, names),
            "user-1 1234 python3 (user-1) malice alice-laptop");
  // A machine's stock account names nobody and is a word of os-release.
  EXPECT_EQ(redaction::user_words("ID=ubuntu\n", users, names), "ID=ubuntu\n");
}

TEST(RedactionNames, EveryClassThroughRedact) {
  const std::string out = redact_output(
      "Connected to GPUNODE17 and gpunode17 (GpuNode17.Cluster.Example.Org)\n"
      "owner alice, /home/alice/x\nHWaddr 001122334455\n",
      "gpunode17.cluster.example.org", "alice");
  EXPECT_EQ(out,
            "Connected to host-1 and host-1 (host-1)\n"
            "owner user-1, /home/user-1/x\nHWaddr 020000000001\n");
  EXPECT_EQ(redact_output(out, "gpunode17.cluster.example.org", "alice"), out);
}

}  // namespace
}  // namespace hwaccel
