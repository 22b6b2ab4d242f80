// One request grammar: the string the C++ API (Registry::select), the C API
// (hwaccel_select) and Python (Session.select) parse with parse_request_text is
// accepted by the CLI's --require, however it is cut into --require values, with
// the same meaning. The CLI adds each value with add_request_text, which
// parse_request_text is made of; this checks that cutting a request anywhere
// between tokens never changes what it means or whether it is refused.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "src/registry/request_text.h"

namespace hwaccel {
namespace {

// Tokens a user writes: good ones of every kind, and mistakes.
const std::vector<std::string> kTokens = {
    "gpu",       "npu",  "tpu", "accelerator",  "mem>=40G", "mem>=512M", "mem>=1",
    "cuda",      "rocm", "cpu", "backend=cuda", "cuda:0",   "cuda:12",   "pci:3b:00.0",
    "mem>=lots", "fpga", "GPU", "mem>",         "=cuda",    "",
};

std::string describe(const Request& r) {
  std::string out = "device=" + r.device + " backend=" + r.backend + " requires";
  for (const auto& q : r.requirements) out += " " + q.text + "/" + std::to_string(q.bytes);
  return out;
}

RC_GTEST_PROP(RequestGrammar, TheCliReadsWhatTheApisRead, ()) {
  const auto picks = *rc::gen::container<std::vector<std::size_t>>(
      rc::gen::inRange<std::size_t>(0, kTokens.size()));
  const auto separators =
      *rc::gen::container<std::vector<int>>(picks.size(), rc::gen::inRange(0, 3));
  const auto cuts =
      *rc::gen::container<std::vector<bool>>(picks.size(), rc::gen::arbitrary<bool>());

  // The whole request, as the APIs receive it ("gpu mem>=40G", "cuda,mem>=20G").
  std::string whole;
  // The same tokens cut into --require values at the chosen places.
  std::vector<std::string> values(1);
  for (std::size_t i = 0; i < picks.size(); ++i) {
    const std::string sep = separators[i] == 0 ? " " : separators[i] == 1 ? "," : ", ";
    if (i > 0) {
      whole += sep;
      if (cuts[i])
        values.emplace_back();
      else
        values.back() += sep;
    }
    whole += kTokens[picks[i]];
    values.back() += kTokens[picks[i]];
  }

  ParsedRequest api = parse_request_text(whole);
  Request cli;
  std::string cli_error;
  for (const auto& v : values)
    if (cli_error.empty()) cli_error = add_request_text(cli, v);

  RC_ASSERT(api.request.has_value() == cli_error.empty());
  if (api.request) {
    RC_ASSERT(describe(*api.request) == describe(cli));
  } else {
    RC_ASSERT(!api.error.empty());
  }
}

// What the CLI's flags set first (a positional device, --backend) meets a
// --require value that names another: refused, never overwritten.
TEST(RequestGrammar, AValueNamingASecondDeviceOrBackendIsRefused) {
  Request flags;
  flags.device = "cuda:0";
  EXPECT_NE(add_request_text(flags, "cuda:1 gpu"), "");
  Request backend;
  backend.backend = "rocm";
  EXPECT_NE(add_request_text(backend, "cuda"), "");
  Request ok;
  ok.backend = "cuda";
  EXPECT_EQ(add_request_text(ok, "gpu mem>=40G"), "");
  ASSERT_EQ(ok.requirements.size(), 2u);
  EXPECT_EQ(ok.requirements[1].bytes, 40ull << 30);
}

}  // namespace
}  // namespace hwaccel
