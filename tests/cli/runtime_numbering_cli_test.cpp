// `hwaccel select` and `devices` speak the runtime's numbering (issue 32): under
// CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER the device printed is the one the
// calling process opens at that ordinal, and its UUID names it alone.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"
#include "tests/support/select_with_env.h"

namespace hwaccel::testing {
namespace {

using Env = std::map<std::string, std::optional<std::string>>;

const char* const kDgxGpu2 = "GPU-bcde7d4e-3c75-1198-e575-422249826f39";  // dgx-h100 cuda:2
const char* const kDgxGpu3 = "GPU-aadc9de4-84bc-0f28-1874-e4df70245c08";

TEST(RuntimeNumberingCli, VisibleDevicesRenumberTheSelection) {
  const auto dir = make_temp_dir();
  // The case: GPUs 2 and 3 are this process's CUDA devices 0 and 1.
  auto s = select_with_env("dgx-h100", {{"CUDA_VISIBLE_DEVICES", "2,3"}}, "", dir);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.label, "cuda:2");
  EXPECT_EQ(s.ordinal, 0);
  EXPECT_EQ(s.uuid, kDgxGpu2);
  auto text = run_command(bin("hwaccel") + " select --host " + quote(s.snapshot));
  EXPECT_EQ(text.out, "cuda:2 ordinal=0 uuid=" + std::string(kDgxGpu2) + "\n");
  auto third = run_command(bin("hwaccel") + " select cuda:3 --host " + quote(s.snapshot));
  EXPECT_EQ(third.out, "cuda:3 ordinal=1 uuid=" + std::string(kDgxGpu3) + "\n");
  // A GPU hidden by the variable is not offered, and says why.
  auto hidden = run_command(bin("hwaccel") + " select cuda:0 --host " + quote(s.snapshot));
  EXPECT_EQ(hidden.exit_code, 8);
  EXPECT_NE(hidden.err.find("not-visible"), std::string::npos) << hidden.err;
}

TEST(RuntimeNumberingCli, UuidsOrderAndAnInvalidEntry) {
  const auto dir = make_temp_dir();
  auto by_uuid = select_with_env(
      "dgx-h100", {{"CUDA_VISIBLE_DEVICES", std::string(kDgxGpu3) + ",GPU-bcde7d4e"}}, "", dir);
  ASSERT_EQ(by_uuid.exit_code, 0) << by_uuid.err;
  EXPECT_EQ(by_uuid.label, "cuda:2");  // equal free memory: the lower index
  EXPECT_EQ(by_uuid.ordinal, 1);       // second in the list
  auto ordered = select_with_env(
      "dgx-h100", {{"CUDA_VISIBLE_DEVICES", "7,-1,0"}, {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}}, "",
      dir);
  ASSERT_EQ(ordered.exit_code, 0) << ordered.err;
  EXPECT_EQ(ordered.label, "cuda:7");  // -1 ends the list: 0 is hidden
  EXPECT_EQ(ordered.ordinal, 0);
  auto devices = run_command(bin("hwaccel") + " devices --json --host " + quote(ordered.snapshot));
  auto doc = nlohmann::json::parse(devices.out);
  int shown = 0;
  for (const auto& d : doc["devices"])
    if (d["backend"] == "cuda" && d["ordinal"].is_number()) ++shown;
  EXPECT_EQ(shown, 1);
  bool warned = false;
  for (const auto& w : doc["warnings"]) warned |= w.dump().find("\\\"-1\\\"") != std::string::npos;
  EXPECT_TRUE(warned) << doc["warnings"].dump();
  // Named twice: CUDA shows no device, so nothing CUDA is offered.
  auto twice =
      select_with_env("dgx-h100", {{"CUDA_VISIBLE_DEVICES", "1,1"}}, "--backend cuda", dir);
  EXPECT_EQ(twice.exit_code, 8) << twice.err;
}

TEST(RuntimeNumberingCli, MigDevicesAreNamedByUuid) {
  const auto dir = make_temp_dir();
  // Unset: CUDA shows only the first MIG device; the others keep no ordinal.
  auto unset = select_with_env("h100-mig", {}, "cuda:3", dir);
  ASSERT_EQ(unset.exit_code, 0) << unset.err;
  EXPECT_FALSE(unset.ordinal);
  EXPECT_EQ(unset.uuid, "MIG-00000002-0000-0000-0000-000000000002");
  auto first = select_with_env("h100-mig", {}, "cuda:1", dir);
  EXPECT_EQ(first.ordinal, 0);
  // Named by its MIG UUID, that MIG device is CUDA device 0.
  auto named = select_with_env(
      "h100-mig", {{"CUDA_VISIBLE_DEVICES", "MIG-00000002-0000-0000-0000-000000000002"}}, "", dir);
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(named.label, "cuda:3");
  EXPECT_EQ(named.ordinal, 0);
}

}  // namespace
}  // namespace hwaccel::testing
