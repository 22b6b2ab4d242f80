// The files users write (an hwsim spec, config.json, DEVICES.toml,
// instances.toml) nested absurdly deep: a located error in bounded time, never a
// stack overflow or a message that says nothing (docs/reliability.md, "Limits on
// untrusted input").
#include <gtest/gtest.h>

#include "sim/spec_reader.h"
#include "src/plan/catalogue.h"
#include "src/plan/instances.h"
#include "src/plan/model_spec.h"

namespace hwaccel {
namespace {

std::string nested(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(UserFileLimits, ADeeplyNestedSpecIsALocatedErrorThatSaysWhy) {
  sim::HostSpec spec;
  auto error =
      sim::parse_spec("schema: hwsim-spec/1\ncpu: " + nested(100000) + "\n", "s.yaml", spec);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->line, 2);
  EXPECT_NE(error->message.find("nested"), std::string::npos) << error->to_string();
  EXPECT_EQ(error->message.find("bad file"), std::string::npos) << error->to_string();
}

TEST(UserFileLimits, ASpecOverItsSizeLimitIsRefusedUnread) {
  sim::HostSpec spec;
  auto error = sim::parse_spec(std::string(sim::kMaxSpecBytes + 1, '#'), "s.yaml", spec);
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("is refused"), std::string::npos);
}

TEST(UserFileLimits, ADeeplyNestedConfigJsonIsAnError) {
  auto r = plan::parse_hf_config(nested(200000), "m/config.json");
  EXPECT_FALSE(r.spec);
  EXPECT_EQ(r.error, "m/config.json: expected a JSON object (a Hugging Face config.json)");
  auto deep_value =
      plan::parse_hf_config("{\"num_hidden_layers\": " + nested(200000) + "}", "c.json");
  EXPECT_FALSE(deep_value.spec);
  EXPECT_EQ(deep_value.error.rfind("c.json", 0), 0u) << deep_value.error;
}

TEST(UserFileLimits, DeeplyNestedTomlIsALocatedError) {
  auto c = plan::parse_catalogue("format = " + nested(100000) + "\n", "d.toml");
  EXPECT_FALSE(c.catalogue);
  EXPECT_EQ(c.error.rfind("d.toml:1:", 0), 0u) << c.error;
  auto i =
      plan::parse_instances("x = " + nested(100000) + "\n", "i.toml", plan::builtin_catalogue());
  EXPECT_FALSE(i.ok());
  EXPECT_EQ(i.error.rfind("i.toml:1:", 0), 0u) << i.error;
}

}  // namespace
}  // namespace hwaccel
