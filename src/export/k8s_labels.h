// Kubernetes label syntax (k8s.io/apimachinery validation): a name is an
// optional DNS-subdomain prefix and "/", then up to 63 characters of
// [A-Za-z0-9_.-] starting and ending alphanumeric; a value is empty or the same
// shape. Product names and driver strings are made to fit.
#pragma once

#include <string>

namespace hwaccel {

bool is_valid_label_name(const std::string& name);  // with or without a prefix
bool is_valid_label_value(const std::string& value);

// "NVIDIA H100 80GB HBM3" -> "NVIDIA-H100-80GB-HBM3"; "" stays "". Never invalid.
std::string to_label_value(const std::string& text);

}  // namespace hwaccel
