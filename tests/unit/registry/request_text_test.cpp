#include "src/registry/request_text.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

TEST(RequestText, EmptyIsTheDefaultChoice) {
  auto r = parse_request_text("");
  ASSERT_TRUE(r.request) << r.error;
  EXPECT_TRUE(r.request->empty());
}

TEST(RequestText, DevicesBackendsAndRequirements) {
  auto r = parse_request_text("cuda:1");
  ASSERT_TRUE(r.request);
  EXPECT_EQ(r.request->device, "cuda:1");
  r = parse_request_text("rocm, gpu mem>=40G");
  ASSERT_TRUE(r.request) << r.error;
  EXPECT_EQ(r.request->backend, "rocm");
  ASSERT_EQ(r.request->requirements.size(), 2u);
  EXPECT_EQ(r.request->requirements[1].bytes, 40ull << 30);
  r = parse_request_text("backend=cuda pci:0000:3b:00.0");
  ASSERT_TRUE(r.request) << r.error;
  EXPECT_EQ(r.request->backend, "cuda");
  EXPECT_EQ(r.request->device, "pci:0000:3b:00.0");
}

TEST(RequestText, MistakesAreNamed) {
  auto r = parse_request_text("gpu mem>=lots");
  EXPECT_FALSE(r.request);
  EXPECT_NE(r.error.find("mem>=lots"), std::string::npos) << r.error;
  r = parse_request_text("cuda rocm");
  EXPECT_FALSE(r.request);
  EXPECT_NE(r.error.find("two backends"), std::string::npos) << r.error;
  r = parse_request_text("cuda:0 cuda:1");
  EXPECT_FALSE(r.request);
}

}  // namespace
}  // namespace hwaccel
