// The CLI's request contracts (issue 38): --require takes the request grammar of
// the APIs ("gpu mem>=40G"), and a MIG host answers a request that no instance
// satisfies with 9 (nothing satisfies), not 8 (partitioned).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

using nlohmann::json;

std::string on(const std::string& fixture) {
  return " --host " + source_path("fixtures/hosts/" + fixture + ".yaml");
}

TEST(RequestContractCli, RequireTakesTheApisGrammar) {
  const std::string select = bin("hwaccel") + " select --json";
  auto one = run_command(select + " --require 'gpu mem>=100G'" + on("gx10"));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  auto two = run_command(select + " --require gpu --require 'mem>=100G'" + on("gx10"));
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(one.out, two.out) << "one value or two, the same request";
  EXPECT_EQ(json::parse(one.out)["device"]["memory"]["kind"], "unified");
  auto comma = run_command(select + " --require 'cuda,mem>=100G'" + on("gx10"));
  ASSERT_EQ(comma.exit_code, 0) << comma.err;
  EXPECT_EQ(json::parse(comma.out)["selected"]["device"],
            json::parse(one.out)["selected"]["device"]);
  EXPECT_NE(comma.out.find("requested backend cuda require mem>=100G"), std::string::npos)
      << comma.out;
  // Mistakes are usage errors that name the token.
  auto bad = run_command(select + " --require 'gpu mem>=lots'" + on("gx10"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("mem>=lots"), std::string::npos) << bad.err;
  auto twice = run_command(bin("hwaccel") + " select cuda:0 --require 'cuda:1'" + on("gx10"));
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("two devices"), std::string::npos) << twice.err;
  // Nothing of 200G anywhere: 9, whichever way it is written.
  EXPECT_EQ(run_command(select + " --require 'gpu mem>=200G'" + on("gx10")).exit_code, 9);
}

TEST(RequestContractCli, AMigHostThatNoInstanceSatisfiesExits9) {
  // The H100 (80 GB) is cut into 3g.40gb, 2g.20gb and 2x 1g.10gb: no instance has 40G.
  auto none =
      run_command(bin("hwaccel") + " select --require gpu --require 'mem>=40G'" + on("h100-mig"));
  EXPECT_EQ(none.exit_code, 9) << none.err;
  EXPECT_NE(none.err.find("no device satisfies"), std::string::npos) << none.err;
  EXPECT_EQ(
      run_command(bin("hwaccel") + " select --require 'gpu mem>=40G'" + on("h100-mig")).exit_code,
      9);
  // What an instance can hold is offered: the 3g.40gb one.
  auto fits =
      run_command(bin("hwaccel") + " select --json --require 'gpu mem>=30G'" + on("h100-mig"));
  ASSERT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_EQ(json::parse(fits.out)["device"]["name"], "NVIDIA H100 80GB HBM3 MIG 3g.40gb");
}

}  // namespace
}  // namespace hwaccel::testing
