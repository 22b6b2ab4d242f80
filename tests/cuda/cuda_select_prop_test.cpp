// The two doors agree on the runtime's numbering (issue 32): for random
// CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER values, inside `hwsim run` on a fixture
// host, every device `hwaccel devices --json` gives an ordinal is the device the
// simulated libcuda.so.1 enumerates at that ordinal (same PCI bus id, same UUID),
// the two count the same devices, and the device `hwaccel select` names is the
// one cuDeviceGet opens at the ordinal it prints. Both programs run in the same
// process environment, as a runtime and its launcher would.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_command.h"
#include "tests/support/test_support.h"

namespace hwaccel::testing {
namespace {

struct Enumerated {
  std::string bus;   // "0000:1b:00.0"
  std::string uuid;  // 32 hex digits, no prefix, no dashes
};

std::string hex_only(const std::string& uuid) {
  std::string out;
  auto dash = uuid.find('-');
  for (char c : uuid.substr(dash == std::string::npos ? 0 : dash + 1))
    if (std::isxdigit(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The UUIDs a generated CUDA_VISIBLE_DEVICES may name: whole GPUs and MIG devices.
const std::vector<std::string>& known_uuids(const std::string& fixture) {
  static std::map<std::string, std::vector<std::string>> cache;
  auto [it, fresh] = cache.try_emplace(fixture);
  if (fresh) {
    auto r = run_command(bin("hwaccel") + " devices --json -q --host " +
                         source_path("fixtures/hosts/" + fixture + ".yaml"));
    auto doc = nlohmann::json::parse(r.out, nullptr, false);
    if (doc.is_object())
      for (const auto& d : doc["devices"])
        if (d["backend"] == "cuda" && d["uuid"].is_string()) it->second.push_back(d["uuid"]);
  }
  return it->second;
}

rc::Gen<std::string> visible_entry(const std::vector<std::string>& uuids) {
  using namespace rc;
  return gen::oneOf(
      gen::map(gen::inRange(0, 10), [](int i) { return std::to_string(i); }),
      gen::element<std::string>("-1", "x", "", " 1", "1gpu", "GPU-", "MIG-"),
      gen::elementOf(uuids),
      // A prefix of a UUID: unique prefixes name the device, ambiguous ones end the list.
      gen::mapcat(gen::elementOf(uuids), [](const std::string& u) {
        return gen::map(gen::inRange<std::size_t>(4, u.size() + 1),
                        [u](std::size_t n) { return u.substr(0, n); });
      }));
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

RC_GTEST_PROP(CudaNumbering, HwaccelsOrdinalIsTheDeviceLibcudaEnumerates, ()) {
  const std::string fixture = *rc::gen::element<std::string>("dgx-h100", "h100-mig", "dgx-a100");
  const auto& uuids = known_uuids(fixture);
  RC_PRE(!uuids.empty());
  std::optional<std::string> visible;
  if (*rc::gen::inRange(0, 5) != 0) {  // unset one time in five
    const auto entries = *rc::gen::container<std::vector<std::string>>(
        static_cast<std::size_t>(*rc::gen::inRange(0, 5)), visible_entry(uuids));
    visible.emplace();
    for (std::size_t i = 0; i < entries.size(); ++i) *visible += (i ? "," : "") + entries[i];
  }
  const auto order =
      *rc::gen::maybe(rc::gen::element<std::string>("PCI_BUS_ID", "FASTEST_FIRST", "bogus"));

  std::string env;
  if (visible) env += "CUDA_VISIBLE_DEVICES=" + shell_quote(*visible) + " ";
  if (order) env += "CUDA_DEVICE_ORDER=" + shell_quote(*order) + " ";
  const std::string script = env + shell_quote(bin("hwaccel")) + " devices --json -q; echo @@; " +
                             env + shell_quote(HWACCEL_CUDA_CLIENT);
  auto r = run_command(shell_quote(bin("hwsim")) + " run " +
                       shell_quote(source_path("fixtures/hosts/" + fixture + ".yaml")) +
                       " -- /bin/sh -c " + shell_quote(script) + " 2>/dev/null");
  const auto split = r.out.find("@@\n");
  RC_ASSERT(split != std::string::npos);
  auto doc = nlohmann::json::parse(r.out.substr(0, split), nullptr, false);
  RC_ASSERT(doc.is_object());

  // hwaccel's view: ordinal -> device
  std::map<int, Enumerated> ours;
  for (const auto& d : doc["devices"]) {
    if (d["backend"] != "cuda" || !d["ordinal"].is_number_integer()) continue;
    int ordinal = d["ordinal"];
    RC_ASSERT(ours.count(ordinal) == 0u);
    ours[ordinal] = {lower(d["pci"]["bus_id"].get<std::string>()),
                     hex_only(d["uuid"].get<std::string>())};
  }
  // libcuda's view, from the client's lines
  std::map<int, Enumerated> theirs;
  int init = -1, count = 0;
  std::istringstream lines(r.out.substr(split + 3));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first, key, value;
    words >> first;
    if (first == "init") words >> init;
    if (first == "count") words >> count;
    if (first != "gpu") continue;
    int i = -1;
    words >> i >> key >> value;
    if (key == "bus") theirs[i].bus = lower(value);
    if (key == "uuid") theirs[i].uuid = hex_only("x-" + value);
  }
  RC_TAG(fixture, ours.size());
  if (ours.empty()) {
    RC_ASSERT(init == 100);  // CUDA_ERROR_NO_DEVICE
    return;
  }
  RC_ASSERT(init == 0);
  RC_ASSERT(count == static_cast<int>(ours.size()));
  for (const auto& [ordinal, device] : ours) {
    RC_ASSERT(theirs.count(ordinal) == 1u);
    RC_ASSERT(theirs[ordinal].bus == device.bus);
    RC_ASSERT(theirs[ordinal].uuid == device.uuid);
  }
  // The device `select` would name: its ordinal opens the same device in libcuda.
  const auto selected = doc.value("selected", nlohmann::json());
  if (selected.is_object() && selected.value("ordinal", nlohmann::json()).is_number_integer()) {
    int ordinal = selected["ordinal"];
    RC_ASSERT(theirs.count(ordinal) == 1u);
    RC_ASSERT(theirs[ordinal].uuid == hex_only(selected["uuid"].get<std::string>()));
  }
}

}  // namespace
}  // namespace hwaccel::testing
