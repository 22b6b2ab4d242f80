// The README's opening paragraph and its layout block name every backend of
// the build, and the paragraph's count is right: adding a probe without saying
// so there fails here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/registry/detection.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

std::string readme() {
  auto text = testing::slurp(testing::source_path("README.md"));
  EXPECT_TRUE(text.has_value());
  return text.value_or("");
}

TEST(Readme, OpeningParagraphNamesEveryBackendAndHowMany) {
  const std::string text = readme();
  const std::string opening = text.substr(0, text.find("\n## "));
  const auto backends = reported_backend_names();
  for (const auto& name : backends)
    EXPECT_NE(opening.find("**" + name + "**"), std::string::npos)
        << "README.md's opening paragraph does not name backend " << name;
  const std::vector<std::string> words = {
      "Zero", "One", "Two",    "Three",  "Four",     "Five",     "Six",     "Seven",  "Eight",
      "Nine", "Ten", "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen"};
  ASSERT_LT(backends.size(), words.size());
  EXPECT_NE(opening.find(words[backends.size()] + " backends"), std::string::npos)
      << "README.md should say \"" << words[backends.size()] << " backends\"";
}

TEST(Readme, LayoutBlockListsEveryProbe) {
  const std::string text = readme();
  // The layout block lists folders by layer: "probe       src/probe/  ...",
  // continued on indented lines up to the next layer's row ("host ...").
  const auto start = text.find("\nprobe ");
  ASSERT_NE(start, std::string::npos);
  ASSERT_NE(text.find("src/probe/", start), std::string::npos);
  const std::string entry = text.substr(start, text.find("\nhost ", start) - start);
  for (const auto& name : reported_backend_names())
    EXPECT_NE(entry.find(name), std::string::npos)
        << "README.md's layout line for src/probe/ does not list " << name;
}

}  // namespace
}  // namespace hwaccel
