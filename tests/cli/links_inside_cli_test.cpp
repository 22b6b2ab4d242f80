// Issue 31, "links stay inside", end to end: every entry point that reads a
// tree (a snapshot, a --root tree, a host under `hwsim run`, a corpus folder, a
// folder of snapshots, a model folder) is handed links that lead to a canary
// file outside it. The canary's bytes never appear in an output, an error or a
// recording; errors name the file and say the link leads outside.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/host/sandbox_runner.h"
#include "tests/cli/cli_test_util.h"
#include "tests/support/safetensors_writer.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCanary = "LINKS-CANARY-4e91c7";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class LinksInside : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::canonical(make_temp_dir()).string();
    secret_ = dir_ + "/outside/secret";
    fs::create_directories(dir_ + "/outside");
    // Looks like what each reader wants, so that a read through the link
    // would show it: a CPU name, a DMI field, a snapshot line, JSON.
    write_text(secret_, std::string("model name\t: ") + kCanary + "\n" + kCanary + ": x\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void expect_no_canary(const CommandResult& r, const std::string& what) {
    EXPECT_EQ(r.out.find(kCanary), std::string::npos) << what << "\n" << r.out;
    EXPECT_EQ(r.err.find(kCanary), std::string::npos) << what << "\n" << r.err;
  }

  // A snapshot whose /proc/cpuinfo and a DMI file link to the canary.
  std::string hostile_snapshot() {
    const std::string path = dir_ + "/host.yaml";
    write_text(path,
               "schema: hwaccel-snapshot/1\nhost: {label: t, origin: hand-written}\n"
               "facts: {os: linux, arch: x86_64, kernel: \"6.8.0\", page_size: 4096, cpus: 2, "
               "hostname: t}\nenv: {PATH: \"/usr/bin:/bin\"}\nfiles:\n"
               "  /proc/cpuinfo: {link: \"" +
                   secret_ +
                   "\"}\n"
                   "  /sys/class/dmi/id/sys_vendor: \"Amazon EC2\\n\"\n"
                   "  /sys/class/dmi/id/product_name: {link: \"../../../../../../../../" +
                   secret_.substr(1) + "\"}\n  /sys/class/dmi/id/board_vendor: {link: \"" +
                   "/proc/self/root" + secret_ + "\"}\ntools: []\n");
    return path;
  }

  // A --root tree with the same links, made on disk.
  std::string hostile_root() {
    const std::string root = dir_ + "/root";
    fs::create_directories(root + "/proc");
    fs::create_directories(root + "/sys/class/dmi/id");
    write_text(root + "/sys/class/dmi/id/sys_vendor", "Amazon EC2\n");
    fs::create_symlink(secret_, root + "/proc/cpuinfo");
    fs::create_symlink("../../../../../../../../../.." + secret_,
                       root + "/sys/class/dmi/id/product_name");
    return root;
  }

  std::string dir_, secret_;
};

TEST_F(LinksInside, ASnapshotsLinksResolveInsideTheSnapshot) {
  const std::string host = hostile_snapshot();
  for (const std::string cmd : {"detect --json", "detect", "devices --json", "select"}) {
    auto r = run_command(bin("hwaccel") + " " + cmd + " --host " + host);
    EXPECT_LT(r.exit_code, 64) << cmd << r.err;
    expect_no_canary(r, cmd);
  }
  auto replay = run_command(bin("hwsim") + " replay " + host);
  expect_no_canary(replay, "replay");
}

TEST_F(LinksInside, ARootTreesLinksResolveInsideTheRoot) {
  const std::string root = hostile_root();
  auto r = run_command(bin("hwaccel") + " detect --json --root " + root);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_no_canary(r, "detect --root");
  const std::string rec = dir_ + "/rec.yaml";
  auto recorded =
      run_command(bin("hwaccel") + " detect --root " + root + " --no-redact --record " + rec);
  EXPECT_EQ(recorded.exit_code, 0) << recorded.err;
  expect_no_canary(recorded, "detect --root --record");
  ASSERT_TRUE(fs::exists(rec));
  EXPECT_EQ(slurp(rec).find(kCanary), std::string::npos);
}

// `hwsim run`: the laid /sys, /proc and /dev hold no link out, and hwaccel
// inside reads none (its /sys, /proc and /dev reads stay in those trees).
TEST_F(LinksInside, UnderHwsimRunNoReadLeavesTheSimulatedHost) {
  if (!private_mounts_available())
    GTEST_SKIP()
        << "no private mount namespace here: `hwsim run` only reports what it cannot cover";
  const std::string host = hostile_snapshot();
  auto r = run_command(bin("hwsim") + " run " + host + " -- " + bin("hwaccel") + " detect --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_no_canary(r, "hwsim run -- hwaccel detect --json");
  // Named where the kernel-shaped tree puts it (/sys/class/dmi/id is a link).
  EXPECT_NE(r.err.find("dmi/id/product_name: a link that leads to"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not laid"), std::string::npos) << r.err;
  // Any program: the link is simply not there.
  auto cat = run_command(bin("hwsim") + " run " + host +
                         " -- /bin/sh -c 'cat /sys/class/dmi/id/product_name "
                         "/sys/class/dmi/id/board_vendor; echo end'");
  expect_no_canary(cat, "hwsim run -- cat");
  EXPECT_NE(cat.out.find("end"), std::string::npos) << cat.err;
  // A recording made there, redacted as by default, holds none of it either.
  const std::string rec = dir_ + "/rec.yaml";
  auto recorded = run_command(bin("hwsim") + " run " + host + " -- " + bin("hwaccel") +
                              " detect --record " + rec);
  EXPECT_EQ(recorded.exit_code, 0) << recorded.err;
  expect_no_canary(recorded, "hwsim run -- hwaccel detect --record");
  ASSERT_TRUE(fs::exists(rec)) << recorded.err;
  EXPECT_EQ(slurp(rec).find(kCanary), std::string::npos);
}

// hwaccel on its own, with a /sys whose files link out (bound over /sys in a
// private mount namespace, as any mount could put there): not read, not
// recorded; a plain `cat` there shows what the links would have given.
TEST_F(LinksInside, ALiveSysFileLinkedOutIsNeitherReadNorRecorded) {
  if (run_command("unshare -rm true").exit_code != 0)
    GTEST_SKIP() << "no unshare -rm here (user and mount namespaces)";
  const std::string sys = dir_ + "/sys";
  fs::create_directories(sys + "/class/dmi/id");
  write_text(sys + "/class/dmi/id/sys_vendor", "Amazon EC2\n");
  fs::create_symlink(secret_, sys + "/class/dmi/id/product_name");
  fs::create_symlink("../../../../../../../.." + secret_, sys + "/class/dmi/id/board_vendor");
  const std::string rec = dir_ + "/rec.yaml";
  auto r = run_command("unshare -rm sh -c 'mount --bind " + sys + " /sys && cat " +
                       "/sys/class/dmi/id/product_name >" + dir_ + "/cat.txt && " + bin("hwaccel") +
                       " detect --json && " + bin("hwaccel") + " detect --record " + rec +
                       " >/dev/null'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_NE(slurp(dir_ + "/cat.txt").find(kCanary), std::string::npos);  // the link is live
  expect_no_canary(r, "detect --json over a /sys that links out");
  const std::string text = slurp(rec);
  EXPECT_EQ(text.find(kCanary), std::string::npos);
  EXPECT_NE(text.find("/sys/class/dmi/id/product_name: {error: EXDEV}"), std::string::npos) << text;
  EXPECT_NE(text.find("/sys/class/dmi/id/board_vendor: {error: EXDEV}"), std::string::npos) << text;
}

TEST_F(LinksInside, MaterializeLeavesALinkOutOfTheTree) {
  const std::string host = hostile_snapshot();
  const std::string tree = dir_ + "/tree";
  auto m = run_command(bin("hwsim") + " materialize " + host + " " + tree);
  EXPECT_EQ(m.exit_code, 0) << m.err;
  EXPECT_NE(m.err.find("dmi/id/product_name: a link that leads to"), std::string::npos) << m.err;
  EXPECT_FALSE(fs::is_symlink(tree + "/sys/class/dmi/id/product_name"));
  EXPECT_FALSE(fs::is_symlink(tree + "/sys/class/dmi/id/board_vendor"));
  EXPECT_TRUE(fs::exists(tree + "/sys/class/dmi/id/sys_vendor"));
}

// `hwsim import` keeps links as links: the target's bytes are never read.
TEST_F(LinksInside, ImportKeepsALinkOutAsALink) {
  const std::string root = hostile_root();
  const std::string out = dir_ + "/imported.yaml";
  auto r = run_command(bin("hwsim") + " import --root " + root + " -o " + out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_no_canary(r, "import");
  const std::string text = slurp(out);
  EXPECT_EQ(text.find(kCanary), std::string::npos);
  EXPECT_NE(text.find("/proc/cpuinfo: {link:"), std::string::npos) << text;
  // And run, that link is not laid.
  if (private_mounts_available()) {
    auto run = run_command(bin("hwsim") + " run " + out + " -- /bin/sh -c 'cat /proc/cpuinfo'");
    expect_no_canary(run, "hwsim run imported -- cat /proc/cpuinfo");
  }
}

TEST_F(LinksInside, FleetAndCheckRefuseASnapshotLinkedFromOutsideTheFolder) {
  const std::string corpus = dir_ + "/corpus";
  fs::create_directories(corpus);
  fs::copy_file(source_path("fixtures/hosts/cpu-only.yaml"), corpus + "/cpu.yaml");
  fs::create_symlink("cpu.yaml", corpus + "/again.yaml");  // inside: fine
  fs::create_symlink(secret_, corpus + "/evil.yaml");
  fs::create_symlink("../outside/secret", corpus + "/evil2.yaml");
  auto fleet = run_command(bin("hwsim") + " fleet " + corpus);
  EXPECT_EQ(fleet.exit_code, 4) << fleet.err;
  expect_no_canary(fleet, "fleet");
  EXPECT_NE(fleet.out.find(corpus + "/evil.yaml: a link leads outside " + corpus),
            std::string::npos)
      << fleet.out;
  EXPECT_NE(fleet.out.find("2 hosts"), std::string::npos) << fleet.out;

  auto check = run_command(bin("hwsim") + " check " + corpus);
  EXPECT_EQ(check.exit_code, 10) << check.err;
  expect_no_canary(check, "check");
  EXPECT_NE(check.out.find("FAIL evil: " + corpus + "/evil.yaml: a link leads outside " + corpus),
            std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("FAIL evil2: "), std::string::npos) << check.out;

  // A golden that links out: not read, so not shown in a diff.
  const std::string only = dir_ + "/only";
  fs::create_directories(only + "/cpu.expected");
  fs::copy_file(source_path("fixtures/hosts/cpu-only.yaml"), only + "/cpu.yaml");
  fs::create_symlink(secret_, only + "/cpu.expected/detect.txt");
  auto golden = run_command(bin("hwsim") + " check " + only);
  EXPECT_EQ(golden.exit_code, 10) << golden.err;
  expect_no_canary(golden, "check with a golden linked out");
  EXPECT_NE(golden.out.find("detect.txt: a link leads outside " + only), std::string::npos)
      << golden.out;
}

void write_llama_config(const std::string& path) {
  write_text(path, R"({"num_hidden_layers": 32, "hidden_size": 4096,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 128256, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})");
}

std::string plan(const std::string& model) {
  return "cd " + source_path("") + " && " + bin("hwaccel") +
         " plan --host fixtures/hosts/dgx-h100.yaml --on cuda:0 --model " + model;
}

TEST_F(LinksInside, AModelFoldersConfigOrShardLinkedOutIsRefused) {
  const std::string model = dir_ + "/model";
  fs::create_directories(model);
  fs::create_symlink(secret_, model + "/config.json");
  auto config = run_command(plan(model));
  EXPECT_EQ(config.exit_code, 4) << config.err;
  expect_no_canary(config, "config.json linked out");
  EXPECT_NE(config.err.find("config.json: a link leads outside"), std::string::npos) << config.err;

  fs::remove(model + "/config.json");
  write_llama_config(model + "/config.json");
  fs::create_symlink("../outside/secret", model + "/model-00001-of-00001.safetensors");
  auto shard = run_command(plan(model));
  EXPECT_EQ(shard.exit_code, 4) << shard.err;
  expect_no_canary(shard, "shard linked out");
  EXPECT_NE(shard.err.find("model-00001-of-00001.safetensors: a link leads outside"),
            std::string::npos)
      << shard.err;

  // An index naming a shard outside the folder.
  fs::remove(model + "/model-00001-of-00001.safetensors");
  write_text(model + "/model.safetensors.index.json",
             R"({"metadata": {}, "weight_map": {"lm_head.weight": "../outside/x.safetensors"}})");
  write_text(dir_ + "/outside/x.safetensors", std::string(8, '\x10') + kCanary);
  auto index = run_command(plan(model));
  EXPECT_EQ(index.exit_code, 4) << index.err;
  expect_no_canary(index, "index naming a shard outside");
}

// Hugging Face's cache: a revision's files are links to ../../blobs/HASH.
TEST_F(LinksInside, AHuggingFaceCacheRevisionIsPlanned) {
  const std::string repo = dir_ + "/hub/models--meta-llama--Meta-Llama-3-8B";
  const std::string rev = repo + "/snapshots/8cde5ca8380496c9a6cc7ef3a8b46a0372a1d920";
  fs::create_directories(repo + "/blobs");
  fs::create_directories(rev);
  write_llama_config(repo + "/blobs/0b7a0e");
  write_text(repo + "/blobs/5c1f33", llama3_8b_bf16().bytes());
  fs::create_symlink("../../blobs/0b7a0e", rev + "/config.json");
  fs::create_symlink("../../blobs/5c1f33", rev + "/model-00001-of-00001.safetensors");
  auto r = run_command(plan(rev));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("exact, 291 tensors"), std::string::npos) << r.out;
  // Out of the repository folder, even from a revision: refused.
  fs::remove(rev + "/config.json");
  fs::create_symlink("../../../../outside/secret", rev + "/config.json");
  auto out = run_command(plan(rev));
  EXPECT_EQ(out.exit_code, 4) << out.err;
  expect_no_canary(out, "HF revision linked out of its repository");
  EXPECT_NE(out.err.find("a link leads outside " + repo), std::string::npos) << out.err;
}

}  // namespace
}  // namespace hwaccel::testing
