// `hwaccel select --json` on a fixture host as a process with given visible-device
// variables would see it. The variables live in the snapshot's `env` (what
// `hwaccel --host` reads, and the whole environment `hwsim run` gives a program),
// so the helper writes the fixture with its env changed and runs the CLI on that
// file. A test of the simulated libcuda.so.1 runs its program under
// `hwsim run SNAPSHOT` on the same file and compares the device at `ordinal`.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/snapshot/snapshot_codec.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {

// fixtures/hosts/FIXTURE.yaml with `env` set (a nullopt value unsets the
// variable), written as DIR/FIXTURE-env.yaml; "" when the fixture cannot be read.
inline std::string snapshot_with_env(const std::string& fixture,
                                     const std::map<std::string, std::optional<std::string>>& env,
                                     const std::string& dir) {
  const std::string from = source_path("fixtures/hosts/" + fixture + ".yaml");
  auto text = slurp(from);
  if (!text) return "";
  Snapshot snapshot;
  if (parse_snapshot(*text, from, snapshot)) return "";
  for (const auto& [name, value] : env) {
    if (value)
      snapshot.env[name] = *value;
    else
      snapshot.env.erase(name);
  }
  const std::string path = dir + "/" + fixture + "-env.yaml";
  write_text(path, write_snapshot(snapshot));
  return path;
}

struct SelectedDevice {
  int exit_code = -1;
  std::string label;           // "cuda:2": the backend's own index
  std::optional<int> ordinal;  // what cuDeviceGet takes in that environment
  std::string uuid;
  std::string snapshot;  // the file it ran on
  std::string err;
};

// `hwaccel select --json REQUEST` on the fixture under `env`.
inline SelectedDevice select_with_env(const std::string& fixture,
                                      const std::map<std::string, std::optional<std::string>>& env,
                                      const std::string& request, const std::string& dir) {
  SelectedDevice out;
  out.snapshot = snapshot_with_env(fixture, env, dir);
  if (out.snapshot.empty()) return out;
  auto r = run_command(bin("hwaccel") + " select --json -q " + request + " --host " +
                       quote(out.snapshot));
  out.exit_code = r.exit_code;
  out.err = r.err;
  if (r.exit_code != 0) return out;
  auto doc = nlohmann::json::parse(r.out, nullptr, false);
  if (doc.is_discarded() || !doc.contains("selected")) return out;
  const auto& s = doc["selected"];
  if (s["device"].is_string()) out.label = s["device"].get<std::string>();
  if (s.contains("ordinal") && s["ordinal"].is_number_integer())
    out.ordinal = s["ordinal"].get<int>();
  if (s.contains("uuid") && s["uuid"].is_string()) out.uuid = s["uuid"].get<std::string>();
  return out;
}

}  // namespace hwaccel::testing
