// Golden roofline pictures: `hwaccel plan ... --svg FILE` on fixture hosts,
// compared byte for byte with tests/golden/plans/NAME.svg (reviewed by
// reading them, and by looking at them in a browser). Rewritten only with
//   HWACCEL_REGENERATE_GOLDEN=1 build/tests/e2e_tests --gtest_filter='*PlanGolden*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/cli/cli_test_util.h"
#include "tests/support/run_command.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

struct SvgCase {
  const char* name;
  const char* args;  // after `hwaccel plan`, run from the repository root
  int exit_code;
};

const SvgCase kSvgCases[] = {
    {"llama3-70b--dgx-h100", "--host fixtures/hosts/dgx-h100.yaml --model Llama-3-70B", 0},
    {"llama3-70b--gx10-q4_k_m",
     "--host fixtures/hosts/gx10.yaml --model Llama-3-70B --quant q4_k_m", 0},
};

class PlanGoldenSvg : public ::testing::TestWithParam<SvgCase> {};

TEST_P(PlanGoldenSvg, RooflineMatchesTheReviewedGolden) {
  const SvgCase& c = GetParam();
  const std::string out = testing::make_temp_dir() + "/roofline.svg";
  auto r = testing::run_command("cd " + testing::source_path("") + " && " +
                                testing::bin("hwaccel") + " plan " + c.args + " --svg " + out);
  ASSERT_EQ(r.exit_code, c.exit_code) << c.args << "\n" << r.err;
  auto actual = testing::slurp(out);
  ASSERT_TRUE(actual) << "no SVG written";
  fs::path golden =
      fs::path(testing::source_path("tests/golden/plans")) / (std::string(c.name) + ".svg");
  testing::compare_or_regenerate(golden, *actual, "SVG");
}

INSTANTIATE_TEST_SUITE_P(Plans, PlanGoldenSvg, ::testing::ValuesIn(kSvgCases),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// --svg follows the house rule for files the user names: an existing file is
// kept unless --force, and a refused write leaves it as it was.
TEST(PlanSvg, AnExistingFileIsReplacedOnlyWithForce) {
  const std::string dir = testing::make_temp_dir(), out = dir + "/mine.svg";
  testing::write_text(out, "precious\n");
  const std::string base = "cd " + testing::source_path("") + " && " + testing::bin("hwaccel") +
                           " plan --host fixtures/hosts/dgx-h100.yaml --model Llama-3-8B --svg " +
                           out;
  auto refused = testing::run_command(base);
  EXPECT_EQ(refused.exit_code, 5) << refused.err;
  EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
  EXPECT_EQ(*testing::slurp(out), "precious\n");
  auto forced = testing::run_command(base + " --force");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(testing::slurp(out)->rfind("<?xml", 0), 0u);
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().rfind(".", 0), std::string::npos)
        << "a temporary was left: " << e.path();
}

// A device the catalogue does not know has no roofs: an error naming it, and
// no file.
TEST(PlanSvg, AnUnknownDeviceIsAnErrorAndNoFile) {
  const std::string out = testing::make_temp_dir() + "/x.svg";
  auto r =
      testing::run_command("cd " + testing::source_path("") + " && " + testing::bin("hwaccel") +
                           " plan --host fixtures/hosts/strix-halo.yaml --model Llama-3-8B "
                           "--svg " +
                           out);
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("no roofline"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace hwaccel
