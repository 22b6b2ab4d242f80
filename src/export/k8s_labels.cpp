#include "src/export/k8s_labels.h"

#include <cctype>

namespace hwaccel {

namespace {

bool alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

bool is_qualified_part(const std::string& s) {
  if (s.empty() || s.size() > 63 || !alnum(s.front()) || !alnum(s.back())) return false;
  for (char c : s)
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

// RFC 1123 subdomain: lowercase labels of [a-z0-9-] joined by dots, 253 at most.
bool is_dns_subdomain(const std::string& s) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t start = 0;
  while (true) {
    auto dot = s.find('.', start);
    std::string label = s.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (label.empty() || label.size() > 63) return false;
    for (char c : label)
      if (!(std::islower(static_cast<unsigned char>(c)) ||
            std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
        return false;
    if (label.front() == '-' || label.back() == '-') return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

bool is_valid_label_name(const std::string& name) {
  auto slash = name.find('/');
  if (slash == std::string::npos) return is_qualified_part(name);
  return is_dns_subdomain(name.substr(0, slash)) && is_qualified_part(name.substr(slash + 1));
}

bool is_valid_label_value(const std::string& value) {
  return value.empty() || is_qualified_part(value);
}

std::string to_label_value(const std::string& text) {
  std::string out;
  for (char c : text) {
    char keep = (alnum(c) || c == '_' || c == '.') ? c : '-';
    if (keep == '-' && !out.empty() && out.back() == '-') continue;
    out += keep;
  }
  if (out.size() > 63) out.resize(63);
  while (!out.empty() && !alnum(out.front())) out.erase(out.begin());
  while (!out.empty() && !alnum(out.back())) out.pop_back();
  return out;
}

}  // namespace hwaccel
