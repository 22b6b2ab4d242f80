// Saving a snapshot as YAML. Everything is emitted in a fixed order (sections as
// in the contract, keys sorted, tools by argv) so the same snapshot always gives
// the same bytes.
#include <sstream>

#include "src/snapshot/encoding.h"
#include "src/snapshot/snapshot_codec.h"
#include "src/snapshot/yaml_scalar.h"
#include "src/vocabulary/result.h"

namespace hwaccel {
namespace {

using yaml_out::block_value;
using yaml_out::double_quoted;
using yaml_out::flow_value;

std::string scalar(std::string_view text, int indent) {
  return block_value(text, indent);
}

// "key: " for a map entry. YAML limits implicit keys to 1024 characters, so a
// longer key (a deep path) is written as an explicit "? key" line.
std::string key_prefix(int indent, std::string_view key_text) {
  std::string pad(std::size_t(indent), ' ');
  if (key_text.size() <= 1000) return pad + std::string(key_text) + ": ";
  return pad + "? " + std::string(key_text) + "\n" + pad + ": ";
}

// "key: value" where the value sits at `indent`+2 if it becomes a block.
void put(std::ostringstream& out, int indent, std::string_view key, std::string_view value) {
  std::string text = scalar(value, indent + 2);
  if (value.empty()) text = "\"\"";
  out << key_prefix(indent, flow_value(key)) << text;
  if (text.back() != '\n') out << '\n';
}

void put_raw(std::ostringstream& out, int indent, std::string_view key, std::string_view raw) {
  out << key_prefix(indent, key) << raw << '\n';
}

// Text that may not be UTF-8: a string when it is, `KEY_base64` otherwise.
void put_bytes(std::ostringstream& out, int indent, std::string_view key, std::string_view bytes) {
  if (is_valid_utf8(bytes)) {
    put(out, indent, key, bytes);
  } else {
    put_raw(out, indent, std::string(key) + "_base64", double_quoted(base64_encode(bytes)));
  }
}

std::string flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += flow_value(items[i]);
  }
  return out + "]";
}

void write_file_entry(std::ostringstream& out, const std::string& path, const FileEntry& e) {
  const std::string key = flow_value(path);
  switch (e.kind) {
    case FileEntry::Kind::content:
      if (is_valid_utf8(e.bytes)) {
        put(out, 2, path, e.bytes);
      } else {
        put_raw(out, 2, key, "{base64: " + double_quoted(base64_encode(e.bytes)) + "}");
      }
      return;
    case FileEntry::Kind::absent:
      put_raw(out, 2, key, "{absent: true}");
      return;
    case FileEntry::Kind::error:
      put_raw(out, 2, key, "{error: " + errno_name(e.error_code) + "}");
      return;
    case FileEntry::Kind::link:
      put_raw(out, 2, key, "{link: " + flow_value(e.target) + "}");
      return;
    case FileEntry::Kind::dir:
      put_raw(out, 2, key, "{dir: " + flow_list(e.names) + "}");
      return;
    case FileEntry::Kind::node:
      put_raw(out, 2, key, "{type: " + std::string(to_string(e.node_type)) + "}");
      return;
  }
}

std::string outcome_text(const ToolRun& run) {
  if (run.outcome == ToolOutcome::signal) return "signal:" + std::to_string(run.signal);
  return std::string(to_string(run.outcome));
}

void write_tool(std::ostringstream& out, const ToolEntry& tool) {
  out << "  - argv: " << flow_list(tool.argv) << '\n';
  const ToolRun& run = tool.run;
  if (run.outcome != ToolOutcome::exited) put_raw(out, 4, "outcome", outcome_text(run));
  if (run.outcome == ToolOutcome::exited) put_raw(out, 4, "exit", std::to_string(run.exit_code));
  if (!run.out.empty() || run.outcome == ToolOutcome::exited) put_bytes(out, 4, "stdout", run.out);
  if (!run.err.empty() || run.outcome == ToolOutcome::exited) put_bytes(out, 4, "stderr", run.err);
  if (tool.has_ms) put_raw(out, 4, "ms", std::to_string(run.ms));
  if (run.truncated) put_raw(out, 4, "truncated", "true");
}

}  // namespace

std::string write_snapshot(const Snapshot& s) {
  std::ostringstream out;
  out << "schema: hwaccel-snapshot/" << s.schema_major << '\n';
  out << "host:\n";
  put(out, 2, "label", s.host.label);
  put(out, 2, "origin", s.host.origin);
  if (!s.host.recorded_at.empty())
    put_raw(out, 2, "recorded_at", double_quoted(s.host.recorded_at));
  if (!s.host.recorder.empty()) put(out, 2, "recorder", s.host.recorder);
  put_raw(out, 2, "redacted", s.host.redacted ? "true" : "false");

  out << "facts:\n";
  put(out, 2, "arch", s.facts.arch);
  put_raw(out, 2, "cpus", std::to_string(s.facts.cpus));
  put(out, 2, "hostname", s.facts.hostname);
  put_raw(out, 2, "kernel", double_quoted(s.facts.kernel));
  put(out, 2, "os", s.facts.os);
  put_raw(out, 2, "page_size", std::to_string(s.facts.page_size));

  if (s.env.empty()) {
    out << "env: {}\n";
  } else {
    out << "env:\n";
    for (const auto& [name, value] : s.env) put(out, 2, name, value);
  }

  if (s.files.empty()) {
    out << "files: {}\n";
  } else {
    out << "files:\n";
    for (const auto& [path, entry] : s.files) write_file_entry(out, path, entry);
  }

  if (s.tools.empty()) {
    out << "tools: []\n";
  } else {
    out << "tools:\n";
    for (const auto& [argv, tool] : s.tools) write_tool(out, tool);
  }
  return out.str();
}

}  // namespace hwaccel
