// A JSON document as YAML (`--format yaml`): same keys, same order (sorted),
// block style; strings that YAML would read as something else are quoted.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace hwaccel {

std::string json_to_yaml(const nlohmann::json& document);

}  // namespace hwaccel
