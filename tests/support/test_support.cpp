#include "tests/support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

namespace hwaccel::testing {

std::optional<std::string> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string source_path(const std::string& relative) {
  return std::string(HWACCEL_SOURCE_DIR) + "/" + relative;
}

std::string real_capture_path(const std::string& name) {
  return source_path("fixtures/real/" + name);
}

std::string test_name(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return text;
}

std::vector<std::string> fixture_host_names() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(source_path("fixtures/hosts")))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool regenerating_goldens() {
  const char* v = std::getenv("HWACCEL_REGENERATE_GOLDEN");
  return v && std::string(v) == "1";
}

void compare_or_regenerate(const std::filesystem::path& golden, const std::string& actual,
                           const std::string& what) {
  if (regenerating_goldens()) {
    std::filesystem::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  auto expected = slurp(golden.string());
  ASSERT_TRUE(expected) << golden << " is missing; review the output and create it with "
                        << "HWACCEL_REGENERATE_GOLDEN=1";
  EXPECT_EQ(*expected, actual) << what << " differs from " << golden;
}

std::optional<std::string> capture_section(const std::string& text, const std::string& prefix) {
  const std::string marker = "# $ " + prefix;
  auto at = text.find(marker);
  if (at == std::string::npos) return std::nullopt;
  // Skip the command line and the closing rule of the banner.
  auto line_end = text.find('\n', at);
  if (line_end == std::string::npos) return std::string();
  auto rule_end = text.find('\n', line_end + 1);
  if (rule_end == std::string::npos) return std::string();
  auto body_start = rule_end + 1;
  auto next = text.find("\n####", body_start);
  std::string body = text.substr(
      body_start, next == std::string::npos ? std::string::npos : next + 1 - body_start);
  // Banners are preceded by two blank lines; they are not part of the output.
  while (body.size() >= 2 && body.substr(body.size() - 2) == "\n\n") body.pop_back();
  return body;
}

Result<std::string> FakeHost::read(std::string_view path) {
  std::string p(path);
  if (auto e = errors.find(p); e != errors.end()) return make_error(e->second, p);
  if (auto f = files.find(p); f != files.end()) return f->second;
  return make_error(ENOENT, p);
}

Result<std::vector<std::string>> FakeHost::list(std::string_view dir) {
  if (auto e = errors.find(std::string(dir)); e != errors.end()) return make_error(e->second, dir);
  if (files.count(std::string(dir))) return make_error(ENOTDIR, dir);
  std::string prefix = std::string(dir) + "/";
  std::set<std::string> names;
  for (const auto& [path, _] : files) {
    if (path.rfind(prefix, 0) != 0) continue;
    auto rest = path.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
  }
  if (names.empty()) return make_error(ENOENT, dir);
  return std::vector<std::string>(names.begin(), names.end());
}

bool FakeHost::knows(std::string_view path) {
  if (knows_everything) return true;
  std::string p(path);
  auto held = [&](const auto& map) {
    if (map.count(p)) return true;
    auto below = map.lower_bound(p + "/");
    return below != map.end() && below->first.rfind(p + "/", 0) == 0;
  };
  return held(files) || held(errors);
}

Result<std::string> FakeHost::readlink(std::string_view path) {
  return make_error(EINVAL, path);
}

Result<FileKind> FakeHost::stat(std::string_view path) {
  std::string p(path);
  if (auto e = errors.find(p); e != errors.end()) return make_error(e->second, p);
  if (files.count(p)) return FileKind::regular;
  if (list(path).ok()) return FileKind::directory;
  return make_error(ENOENT, p);
}

ToolRun FakeHost::run(const std::vector<std::string>& argv, Timeout) {
  {
    // Probes may run tools from several threads at once (the CUDA follow-ups).
    static std::mutex runs_mutex;
    std::lock_guard lock(runs_mutex);
    runs.push_back(argv);
  }
  if (auto t = tools.find(argv); t != tools.end()) return t->second;
  ToolRun missing;
  missing.outcome = ToolOutcome::not_found;
  return missing;
}

std::optional<std::string> FakeHost::env(std::string_view name) {
  if (auto e = environment.find(std::string(name)); e != environment.end()) return e->second;
  return std::nullopt;
}

}  // namespace hwaccel::testing
