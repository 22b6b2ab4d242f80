#include "src/report/json_yaml.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

namespace hwaccel {
namespace {

TEST(JsonYaml, KeepsStructureAndQuotesWhatWouldReadAsOtherTypes) {
  nlohmann::json doc = {{"schema", "hwaccel-detect/1"},
                        {"driver", "580.95.05"},
                        {"cc", "12.1"},
                        {"vendor_id", "0x10de"},
                        {"bus", "0000:18:00.0"},
                        {"word", "yes"},
                        {"free", nullptr},
                        {"count", 8},
                        {"list", {1, "two"}}};
  std::string y = json_to_yaml(doc);
  EXPECT_NE(y.find("cc: \"12.1\""), std::string::npos) << y;
  EXPECT_NE(y.find("vendor_id: \"0x10de\""), std::string::npos) << y;
  EXPECT_NE(y.find("word: \"yes\""), std::string::npos) << y;
  EXPECT_NE(y.find("bus: \"0000:18:00.0\""), std::string::npos) << y;
  EXPECT_NE(y.find("schema: hwaccel-detect/1"), std::string::npos) << y;
  YAML::Node back = YAML::Load(y);
  EXPECT_EQ(back["driver"].as<std::string>(), "580.95.05");
  EXPECT_EQ(back["count"].as<int>(), 8);
  EXPECT_TRUE(back["free"].IsNull());
  EXPECT_EQ(back["list"][1].as<std::string>(), "two");
}

}  // namespace
}  // namespace hwaccel
