// Every export of every fixture host is valid for the tool that reads it: NFD
// labels against the Kubernetes regexes (written out here from
// k8s.io/apimachinery's validation, independently of src/export/k8s_labels),
// Prometheus lines against the exposition format's grammar.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "src/export/device_files.h"
#include "src/export/fleet_exports.h"
#include "src/export/k8s_labels.h"
#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

// qualifiedNameFmt and labelValueFmt; DNS-1123 subdomain for the prefix.
const std::regex kName(R"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])");
const std::regex kValue(R"((([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?)");
const std::regex kPrefix(R"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)");

const std::regex kExpiry(
    R"(# \+expiry-time=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)");

std::vector<Detection> all_fixture_detections(std::vector<std::unique_ptr<SnapshotHost>>* hosts) {
  std::vector<Detection> out;
  for (const auto& e : fs::directory_iterator(testing::source_path("fixtures/hosts"))) {
    if (e.path().extension() != ".yaml") continue;
    auto loaded = load_snapshot_file(e.path().string());
    if (loaded.error) continue;
    auto host = std::make_unique<SnapshotHost>(std::move(*loaded.snapshot));
    out.push_back(detect(*host));
    if (hosts) hosts->push_back(std::move(host));
  }
  return out;
}

void expect_valid_nfd(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      // "# +" is an NFD directive: only expiry-time, only in its RFC 3339 form.
      if (line.rfind("# +", 0) == 0) {
        EXPECT_TRUE(std::regex_match(line, kExpiry)) << line;
      }
      continue;
    }
    auto eq = line.find('=');
    ASSERT_NE(eq, std::string::npos) << line;
    std::string name = line.substr(0, eq), value = line.substr(eq + 1);
    auto slash = name.find('/');
    ASSERT_NE(slash, std::string::npos) << "no namespace: " << line;
    std::string prefix = name.substr(0, slash), base = name.substr(slash + 1);
    EXPECT_TRUE(prefix == "hwaccel.io" || prefix == "nvidia.com") << line;
    EXPECT_TRUE(std::regex_match(prefix, kPrefix) && prefix.size() <= 253) << line;
    EXPECT_TRUE(std::regex_match(base, kName) && base.size() <= 63) << line;
    EXPECT_TRUE(std::regex_match(value, kValue) && value.size() <= 63) << line;
  }
}

TEST(NfdLabels, EveryLabelOfEveryFixtureIsAValidKubernetesLabel) {
  auto detections = all_fixture_detections(nullptr);
  ASSERT_GT(detections.size(), 5u);
  NfdOptions gfd;
  gfd.nvidia_labels = true;
  gfd.expiry_time = "2026-12-01T14:00:00Z";
  for (const auto& d : detections) {
    expect_valid_nfd(render_nfd(d));
    expect_valid_nfd(render_nfd(d, gfd));
  }
}

TEST(NfdLabels, AwkwardNamesAreMadeValid) {
  const std::vector<std::string> awkward = {"NVIDIA GeForce RTX 4090 (TM)",
                                            "  AMD Radeon™ 8060S  ",
                                            "a/b:c",
                                            "----",
                                            "",
                                            std::string(100, 'x') + " tail",
                                            "580.95.05",
                                            "_x_"};
  for (const std::string& s : awkward) {
    std::string v = to_label_value(s);
    EXPECT_TRUE(std::regex_match(v, kValue) && v.size() <= 63) << s << " -> " << v;
    EXPECT_TRUE(is_valid_label_value(v)) << v;
  }
  EXPECT_EQ(to_label_value("NVIDIA H100 80GB HBM3"), "NVIDIA-H100-80GB-HBM3");
  EXPECT_TRUE(is_valid_label_name("hwaccel.io/cuda.memory-gib"));
  EXPECT_FALSE(is_valid_label_name("Hwaccel.io/x"));
  EXPECT_FALSE(is_valid_label_name("hwaccel.io/-x"));
  EXPECT_FALSE(is_valid_label_value(std::string(64, 'a')));
}

TEST(PrometheusText, EveryLineFollowsTheExpositionFormat) {
  const std::regex help(R"(# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .+)");
  const std::regex type(R"(# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (gauge|counter|untyped))");
  const std::regex sample(
      R"([a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*")(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*")*\})? -?[0-9]+(\.[0-9]+)?)");
  std::vector<std::unique_ptr<SnapshotHost>> hosts;
  auto detections = all_fixture_detections(&hosts);
  for (std::size_t i = 0; i < detections.size(); ++i) {
    const Detection& d = detections[i];
    std::istringstream in(render_prometheus(*hosts[i], d));
    std::string line;
    std::set<std::string> typed;
    while (std::getline(in, line)) {
      if (line.rfind("# HELP", 0) == 0) {
        EXPECT_TRUE(std::regex_match(line, help)) << line;
      } else if (line.rfind("# TYPE", 0) == 0) {
        EXPECT_TRUE(std::regex_match(line, type)) << line;
        EXPECT_TRUE(typed.insert(line).second) << "TYPE twice: " << line;
      } else {
        EXPECT_TRUE(std::regex_match(line, sample)) << line;
      }
    }
  }
}

TEST(SlurmGres, ShortTypesAndRanges) {
  Entry e;
  e.backend = "cuda";
  e.type = DeviceType::gpu;
  e.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(gres_type(e), "h100");
  e.name = "NVIDIA GeForce RTX 4090";
  EXPECT_EQ(gres_type(e), "rtx_4090");
  e.name = "AMD Instinct MI300X";
  EXPECT_EQ(gres_type(e), "mi300x");
  e.name = "NVIDIA GB10";
  EXPECT_EQ(gres_type(e), "gb10");
  // trn1 is first-generation Trainium: the "(2 NeuronCores)" is a core count.
  e.backend = "neuron";
  e.type = DeviceType::npu;
  e.name = "AWS Trainium (2 NeuronCores)";
  EXPECT_EQ(gres_type(e), "trainium");
  e.name = "AWS Inferentia2 (2 NeuronCores)";
  EXPECT_EQ(gres_type(e), "inferentia2");
  e.backend = "qualcomm";
  e.name = "Qualcomm Cloud AI 100";
  EXPECT_EQ(gres_type(e), "cloud_ai_100");
}

}  // namespace
}  // namespace hwaccel
