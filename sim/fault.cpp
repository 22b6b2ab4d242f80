#include "sim/fault.h"

#include <array>
#include <utility>

namespace hwaccel::sim {
namespace {

constexpr std::array<std::pair<FaultKind, std::string_view>, 13> kNames = {{
    {FaultKind::hang, "hang"},
    {FaultKind::signal, "signal"},
    {FaultKind::exit, "exit"},
    {FaultKind::missing, "missing"},
    {FaultKind::denied, "denied"},
    {FaultKind::empty, "empty"},
    {FaultKind::truncate, "truncate"},
    {FaultKind::garbage, "garbage"},
    {FaultKind::flood, "flood"},
    {FaultKind::gone, "gone"},
    {FaultKind::loop, "loop"},
    {FaultKind::unload, "unload"},
    {FaultKind::free, "free"},
}};

std::string kind_list() {
  std::string all;
  for (const auto& [kind, name] : kNames) all += (all.empty() ? "" : ", ") + std::string(name);
  return all;
}

}  // namespace

std::string_view to_string(FaultKind kind) {
  for (const auto& [k, name] : kNames)
    if (k == kind) return name;
  return "?";
}

std::optional<FaultKind> fault_kind_from_string(std::string_view text) {
  if (text == "eacces") return FaultKind::denied;  // the errno's name reads naturally too
  for (const auto& [kind, name] : kNames)
    if (name == text) return kind;
  return std::nullopt;
}

std::vector<FaultKind> all_fault_kinds() {
  std::vector<FaultKind> kinds;
  for (const auto& [kind, name] : kNames) kinds.push_back(kind);
  return kinds;
}

std::optional<Fault> parse_fault(std::string_view text, std::string& error) {
  const auto colon = text.find(':');
  const std::string_view kind_text = text.substr(0, colon);
  auto kind = fault_kind_from_string(kind_text);
  if (!kind) {
    error = "unknown fault kind \"" + std::string(kind_text) + "\" (expected KIND:TARGET[=ARG], " +
            "KIND one of: " + kind_list() + ")";
    return std::nullopt;
  }
  if (colon == std::string_view::npos || colon + 1 == text.size()) {
    error = "fault \"" + std::string(text) + "\" names no target (expected " +
            std::string(kind_text) + ":TARGET[=ARG])";
    return std::nullopt;
  }
  Fault fault;
  fault.kind = *kind;
  fault.text = std::string(text);
  std::string_view rest = text.substr(colon + 1);
  // A path never holds '=' in practice; a tool argv may ("--format=csv"), so
  // for tools the argument follows the LAST '=' only when it is a plain value.
  auto eq = rest.find('=');
  if (fault.kind == FaultKind::exit || fault.kind == FaultKind::free) {
    if (eq == std::string_view::npos) {
      error = "fault \"" + std::string(text) + "\" needs an argument (" +
              (fault.kind == FaultKind::exit ? "exit:TOOL=CODE[:STDERR]" : "free:TARGET=SIZE") +
              ")";
      return std::nullopt;
    }
  }
  if (eq != std::string_view::npos && rest.substr(0, eq).find(' ') == std::string_view::npos) {
    fault.target = std::string(rest.substr(0, eq));
    fault.arg = std::string(rest.substr(eq + 1));
  } else if (eq != std::string_view::npos) {
    // "hang:nvidia-smi --query-gpu=a,b --format=csv": '=' inside the argv; an
    // argument, if any, comes after " = "
    auto sep = rest.rfind(" = ");
    fault.target = std::string(sep == std::string_view::npos ? rest : rest.substr(0, sep));
    if (sep != std::string_view::npos) fault.arg = std::string(rest.substr(sep + 3));
  } else {
    fault.target = std::string(rest);
  }
  if (fault.target.empty()) {
    error = "fault \"" + std::string(text) + "\" names no target";
    return std::nullopt;
  }
  return fault;
}

}  // namespace hwaccel::sim
