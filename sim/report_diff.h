// `hwsim diff` of two JSON reports (hwaccel-detect/1, or any other JSON the tools
// print): backends by name, devices by id ("cuda:0"), links and warnings as sets,
// everything else field by field. Deterministic: object keys in sorted order.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hwaccel::sim {

// One line per difference ("backends[cuda].status: ready -> unavailable"); empty when equal.
std::vector<std::string> diff_reports(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace hwaccel::sim
