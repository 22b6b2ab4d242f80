// Regression tests for what the long fuzz runs found (docs/reliability.md,
// "Findings"). The inputs themselves are also in tests/fuzz/regressions/, which
// tests/fuzz/make_seeds.py adds to every smoke run's seeds.
#include <gtest/gtest.h>

#include "sim/spec_reader.h"
#include "src/plan/catalogue.h"
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

// hwsim_spec_fuzz, after 40 s of its long run (input ".'"): parse_spec_size used
// std::stod, which throws on "." and on a number beyond a double; a spec with
// `memory: {total: "."}` ended `hwsim synth` in std::terminate.
TEST(FuzzFindings, SpecSizeWithoutDigitsOrBeyondADoubleIsNotASize) {
  EXPECT_FALSE(sim::parse_spec_size(regression("hwsim_spec", "size-without-digits")));
  EXPECT_FALSE(sim::parse_spec_size("."));
  EXPECT_FALSE(sim::parse_spec_size(std::string(400, '9')));
  EXPECT_FALSE(sim::parse_spec_size(std::string(400, '9') + " GiB"));
  EXPECT_EQ(sim::parse_spec_size(".5 KiB"), 512u);
  EXPECT_EQ(sim::parse_spec_size("80 GiB"), 80ull << 30);
  sim::HostSpec spec;
  auto error = sim::parse_spec(
      "schema: hwsim-spec/1\ncpu: {model: X, uarch: zen3, sockets: 1, cores: 8, threads: 2}\n"
      "memory: {total: \".\"}\n",
      "s.yaml", spec);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->line, 3);
  EXPECT_NE(error->message.find("memory.total"), std::string::npos) << error->to_string();
}

// kernel_toml, plan_catalogue and plan_instances, seconds into ci/fuzz once
// toml++ was compiled with them (finding 7): "[.a]" tripped an assertion in
// toml++'s parse_key (an abort in debug and sanitizer builds). With its
// assertions off the parser reports the error itself, located.
TEST(FuzzFindings, ATableHeaderStartingWithADotIsALocatedError) {
  auto text = regression("plan_catalogue", "table-header-starting-with-a-dot.toml");
  auto r = plan::parse_catalogue(text, "dot.toml");
  EXPECT_FALSE(r.catalogue);
  EXPECT_NE(r.error.find("dot.toml:2:"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("expected bare key starting character"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace hwaccel
