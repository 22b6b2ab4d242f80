// A build configured with -DHWACCEL_BACKEND_CUDA=OFF, made cheaply: this
// program links the regular library but its own copy of
// src/registry/build_backends.cpp, compiled with the definitions CMake gives
// that file when the option is OFF (tests/ecosystem.cmake). The linker takes
// that object before the archive's, so the whole library sees CUDA left out.
#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/registry/build_backends.h"
#include "src/registry/detection.h"
#include "src/registry/selection.h"
#include "src/report/detect_text.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

Detection detect_fixture(const std::string& name) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_FALSE(loaded.error);
  SnapshotHost host(*loaded.snapshot);
  return detect(host);
}

TEST(BackendLeftOut, CudaIsANotCompiledLineOnADgxH100) {
  ASSERT_TRUE(is_left_out("cuda")) << "this program must be built with cuda left out";
  Detection d = detect_fixture("dgx-h100");
  ASSERT_FALSE(d.backends.empty());
  EXPECT_EQ(d.backends[0].name, "cuda");
  ASSERT_TRUE(d.backends[0].reason);
  EXPECT_EQ(d.backends[0].reason->code, ReasonCode::not_compiled);
  for (const auto& e : d.entries) EXPECT_NE(e.backend, "cuda");
  std::string text = render_detect_text(d);
  EXPECT_NE(text.find("not-compiled: left out of this build (-DHWACCEL_BACKEND_CUDA=OFF)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.rfind("cuda ", 0), std::string::npos);
  EXPECT_NE(text.find("\ncuda "), std::string::npos) << "the cuda line is still there";
  for (const auto& b : d.backends)
    if (b.name != "cuda" && b.reason) {
      EXPECT_NE(b.reason->code, ReasonCode::not_compiled);
    }
}

TEST(BackendLeftOut, ARequestForItIsNotCompiled) {
  Detection d = detect_fixture("dgx-h100");
  Request r;
  r.device = "cuda:0";
  auto result = resolve_request(d, r, backend_names());
  EXPECT_EQ(result.outcome, RequestOutcome::not_compiled) << result.message;
  const auto built = backend_names();
  EXPECT_EQ(std::count(built.begin(), built.end(), "cuda"), 0);
}

}  // namespace
}  // namespace hwaccel
