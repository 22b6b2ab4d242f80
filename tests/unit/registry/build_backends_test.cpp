// Build options per backend: every known backend but cpu has one, a backend
// left out keeps its line as not-compiled, and a built one never says so.
#include "src/registry/build_backends.h"

#include <gtest/gtest.h>

#include "src/registry/backends.h"
#include "src/registry/detection.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

TEST(BuildBackends, EveryKnownBackendButCpuHasAnOption) {
  std::vector<std::string> expected;
  for (const auto& name : known_backend_names())
    if (name != "cpu") expected.push_back(name);
  EXPECT_EQ(backend_build_options(), expected)
      << "cmake/Backends.cmake's HWACCEL_BACKEND_OPTIONS and known_backend_names() differ";
}

TEST(BuildBackends, OptionFlagNamesTheCMakeVariable) {
  EXPECT_EQ(backend_option_flag("cuda"), "-DHWACCEL_BACKEND_CUDA=OFF");
  EXPECT_EQ(backend_option_flag("intel_npu"), "-DHWACCEL_BACKEND_INTEL_NPU=OFF");
}

TEST(BuildBackends, ALeftOutBackendIsStillALineSayingNotCompiled) {
  testing::FakeHost host;
  DetectOptions options;
  options.left_out = std::vector<std::string>{"cuda"};
  Detection d = detect(host, options);
  ASSERT_FALSE(d.backends.empty());
  EXPECT_EQ(d.backends.front().name, "cuda");
  EXPECT_FALSE(d.backends.front().ready);
  ASSERT_TRUE(d.backends.front().reason);
  EXPECT_EQ(d.backends.front().reason->code, ReasonCode::not_compiled);
  EXPECT_NE(d.backends.front().reason->detail.find("-DHWACCEL_BACKEND_CUDA=OFF"),
            std::string::npos);
  EXPECT_TRUE(host.runs.empty() || host.runs.front().front() != "nvidia-smi")
      << "a left-out probe must not run";
  for (const auto& e : d.entries) EXPECT_NE(e.backend, "cuda");
}

TEST(BuildBackends, ABuiltBackendNeverSaysNotCompiled) {
  testing::FakeHost host;
  DetectOptions options;
  options.left_out = std::vector<std::string>{};
  Detection d = detect(host, options);
  EXPECT_EQ(d.backends.size(), reported_backend_names().size());
  for (const auto& b : d.backends)
    if (b.reason) {
      EXPECT_NE(b.reason->code, ReasonCode::not_compiled) << b.name;
    }
}

TEST(BuildBackends, ThisBuildReportsWhatItWasConfiguredWith) {
  testing::FakeHost host;
  Detection d = detect(host);
  for (const auto& b : d.backends) {
    bool said_not_compiled = b.reason && b.reason->code == ReasonCode::not_compiled;
    EXPECT_EQ(said_not_compiled, is_left_out(b.name)) << b.name;
  }
  for (const auto& name : backend_names()) EXPECT_FALSE(is_left_out(name)) << name;
}

}  // namespace
}  // namespace hwaccel
