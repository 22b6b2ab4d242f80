#include "sim/report_diff.h"

#include <map>

namespace hwaccel::sim {
namespace {

using nlohmann::json;

std::string scalar(const json& v) {
  std::string text = v.dump();
  if (text.size() > 160) text = text.substr(0, 157) + "...";
  return text;
}

// The key an element of a known array is matched by, or "" to match by position.
std::string element_key(const std::string& array_path, const json& item) {
  if (!item.is_object()) return "";
  auto str = [&](const char* k) -> std::string {
    auto it = item.find(k);
    if (it == item.end()) return "";
    return it->is_string() ? it->get<std::string>() : it->dump();
  };
  if (array_path == "backends") return str("name");
  if (array_path == "devices") {
    std::string backend = str("backend"), index = str("index");
    if (!backend.empty() && !index.empty()) return backend + ":" + index;
    return str("physical_id");
  }
  return "";
}

// Arrays compared as sets of their elements' JSON (order carries no meaning).
bool is_set_array(const std::string& path) {
  return path == "links" || path == "warnings";
}

std::string label_of(const json& item) {
  if (item.is_object()) {
    auto it = item.find("name");
    if (it != item.end() && it->is_string()) return " (" + it->get<std::string>() + ")";
  }
  return "";
}

void diff_value(const std::string& path, const json& a, const json& b,
                std::vector<std::string>& out);

void diff_array(const std::string& path, const json& a, const json& b,
                std::vector<std::string>& out) {
  if (is_set_array(path)) {
    std::map<std::string, int> count;
    for (const auto& x : a) --count[x.dump()];
    for (const auto& y : b) ++count[y.dump()];
    for (const auto& [text, n] : count) {
      for (int i = 0; i < -n; ++i) out.push_back(path + ": - " + text);
      for (int i = 0; i < n; ++i) out.push_back(path + ": + " + text);
    }
    return;
  }
  bool keyed = !a.empty() || !b.empty();
  std::map<std::string, const json*> ka, kb;
  for (const auto& x : a) {
    std::string k = element_key(path, x);
    if (k.empty() || ka.count(k)) keyed = false;
    ka[k] = &x;
  }
  for (const auto& y : b) {
    std::string k = element_key(path, y);
    if (k.empty() || kb.count(k)) keyed = false;
    kb[k] = &y;
  }
  if (keyed) {
    for (const auto& [k, x] : ka)
      if (!kb.count(k)) out.push_back(path + ": - " + k + label_of(*x));
    for (const auto& [k, y] : kb)
      if (!ka.count(k)) out.push_back(path + ": + " + k + label_of(*y));
    for (const auto& [k, x] : ka)
      if (auto it = kb.find(k); it != kb.end())
        diff_value(path + "[" + k + "]", *x, *it->second, out);
    return;
  }
  std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i)
    diff_value(path + "[" + std::to_string(i) + "]", a[i], b[i], out);
  for (std::size_t i = common; i < a.size(); ++i)
    out.push_back(path + ": - [" + std::to_string(i) + "] " + scalar(a[i]));
  for (std::size_t i = common; i < b.size(); ++i)
    out.push_back(path + ": + [" + std::to_string(i) + "] " + scalar(b[i]));
}

void diff_value(const std::string& path, const json& a, const json& b,
                std::vector<std::string>& out) {
  if (a == b) return;
  if (a.is_object() && b.is_object()) {
    for (const auto& [k, x] : a.items()) {
      std::string sub = path.empty() ? k : path + "." + k;
      if (!b.contains(k))
        out.push_back(sub + ": - " + scalar(x));
      else
        diff_value(sub, x, b.at(k), out);
    }
    for (const auto& [k, y] : b.items()) {
      if (!a.contains(k)) out.push_back((path.empty() ? k : path + "." + k) + ": + " + scalar(y));
    }
    return;
  }
  if (a.is_array() && b.is_array()) {
    diff_array(path, a, b, out);
    return;
  }
  out.push_back((path.empty() ? "(document)" : path) + ": " + scalar(a) + " -> " + scalar(b));
}

}  // namespace

std::vector<std::string> diff_reports(const json& a, const json& b) {
  std::vector<std::string> out;
  diff_value("", a, b, out);
  return out;
}

}  // namespace hwaccel::sim
