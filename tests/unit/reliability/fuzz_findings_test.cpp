// Regression tests for what the long fuzz runs found (docs/reliability.md,
// "Findings"). The inputs themselves are also in tests/fuzz/regressions/, which
// tests/fuzz/make_seeds.py adds to every smoke run's seeds.
#include <gtest/gtest.h>

#include "src/plan/model_spec.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

std::string regression(const std::string& target, const std::string& name) {
  auto text = testing::slurp(testing::source_path("tests/fuzz/regressions/" + target + "/" + name));
  EXPECT_TRUE(text) << target << "/" << name;
  return text.value_or("");
}

// model_config_fuzz, first seconds: nlohmann::json throws out_of_range (406,
// number overflow), not parse_error, for "1e999"; parse_hf_config caught only
// parse_error, so `hwaccel plan --model config.json` ended in std::terminate.
TEST(FuzzFindings, ConfigJsonWithANumberBeyondADoubleIsAnError) {
  auto r =
      plan::parse_hf_config(regression("model_config", "number-overflow.json"), "m/config.json");
  EXPECT_FALSE(r.spec);
  EXPECT_EQ(r.error,
            "m/config.json: not valid JSON: number overflow parsing '1e999' (expected a Hugging "
            "Face config.json)");
}

}  // namespace
}  // namespace hwaccel
