#include "src/registry/build_backends.h"

#include <algorithm>
#include <cctype>
#include <sstream>

// Set by cmake/Backends.cmake on this file alone; defaults for other builds.
#ifndef HWACCEL_BACKEND_OPTIONS
#define HWACCEL_BACKEND_OPTIONS ""
#endif
#ifndef HWACCEL_LEFT_OUT_BACKENDS
#define HWACCEL_LEFT_OUT_BACKENDS ""
#endif

namespace hwaccel {

namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

const std::vector<std::string>& backend_build_options() {
  static const std::vector<std::string> names = split_commas(HWACCEL_BACKEND_OPTIONS);
  return names;
}

const std::vector<std::string>& left_out_backends() {
  static const std::vector<std::string> names = split_commas(HWACCEL_LEFT_OUT_BACKENDS);
  return names;
}

bool is_left_out(std::string_view backend) {
  const auto& names = left_out_backends();
  return std::find(names.begin(), names.end(), backend) != names.end();
}

std::string backend_option_flag(std::string_view backend) {
  std::string upper(backend);
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  return "-DHWACCEL_BACKEND_" + upper + "=OFF";
}

}  // namespace hwaccel
