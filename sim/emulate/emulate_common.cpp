#include "sim/emulate/emulate_common.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace hwaccel::sim::emulate {

std::vector<const Entry*> devices_of(const Detection& detection, std::string_view backend) {
  std::vector<const Entry*> out;
  for (const auto& entry : detection.entries)
    if (entry.backend == backend && !entry.partition) out.push_back(&entry);
  std::stable_sort(out.begin(), out.end(),
                   [](const Entry* a, const Entry* b) { return a->index < b->index; });
  return out;
}

const BackendStatus* backend_of(const Detection& detection, std::string_view backend) {
  for (const auto& status : detection.backends)
    if (status.name == backend) return &status;
  return nullptr;
}

bool driver_missing(const Detection& detection, std::string_view backend) {
  const BackendStatus* status = backend_of(detection, backend);
  return status && !status->ready && status->reason &&
         status->reason->code == ReasonCode::driver_not_found;
}

const ToolEntry* recorded_ok(const Snapshot& snapshot, const std::vector<std::string>& argv) {
  auto it = snapshot.tools.find(argv);
  if (it == snapshot.tools.end() || !it->second.run.ok()) return nullptr;
  return &it->second;
}

std::optional<std::string> recorded_text(const Snapshot& snapshot, const std::string& path) {
  auto it = snapshot.files.find(path);
  if (it == snapshot.files.end() || it->second.kind != FileEntry::Kind::content)
    return std::nullopt;
  std::string_view text = it->second.bytes;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return std::string(text);
}

std::string pad_right(std::string_view text, std::size_t width) {
  std::string out(text);
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

std::string pad_left(std::string_view text, std::size_t width) {
  std::string out;
  if (text.size() < width) out.assign(width - text.size(), ' ');
  out.append(text);
  return out;
}

std::string banner(std::string_view text, std::size_t width, char fill) {
  if (text.empty()) return std::string(width, fill);
  const std::size_t used = text.size() + 2;
  const std::size_t left = used < width ? (width - used) / 2 : 0;
  const std::size_t right = used + left < width ? width - used - left : 0;
  return std::string(left, fill) + " " + std::string(text) + " " + std::string(right, fill);
}

std::uint64_t mib_of(std::uint64_t bytes) {
  return bytes / (1024 * 1024);
}

std::string short_bdf(std::string_view bdf) {
  if (bdf.size() == 12 && bdf[4] == ':') bdf.remove_prefix(5);
  return std::string(bdf);
}

ToolAnswer usage_error(std::string err, int exit_code) {
  ToolAnswer answer;
  answer.err = std::move(err);
  answer.exit_code = exit_code;
  return answer;
}

std::string json_quote(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace hwaccel::sim::emulate
