#include "sim/snapshot_diff.h"

#include <algorithm>

#include "sim/tool_spec.h"
#include "src/snapshot/encoding.h"
#include "src/vocabulary/result.h"

namespace hwaccel::sim {
namespace {

// Printable form of one line of a file or tool output, quoted when needed.
std::string show(std::string_view text, std::size_t max = 120) {
  std::string out;
  for (char c : text.substr(0, max)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\\')
      out += "\\\\";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (u < 0x20 || u == 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else
      out += c;
  }
  if (text.size() > max) out += "...";
  return out;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

std::string describe_entry(const FileEntry& e) {
  switch (e.kind) {
    case FileEntry::Kind::content:
      return std::to_string(e.bytes.size()) + " bytes" +
             (is_valid_utf8(e.bytes) ? "" : " (binary)");
    case FileEntry::Kind::absent:
      return "absent";
    case FileEntry::Kind::error:
      return "error " + errno_name(e.error_code);
    case FileEntry::Kind::link:
      return "link -> " + e.target;
    case FileEntry::Kind::dir: {
      std::string names;
      for (const auto& n : e.names) names += (names.empty() ? "" : ", ") + n;
      return "dir [" + names + "]";
    }
    case FileEntry::Kind::node:
      return "node " + std::string(to_string(e.node_type));
  }
  return "?";
}

std::string describe_run(const ToolRun& r) {
  switch (r.outcome) {
    case ToolOutcome::exited:
      return "exit " + std::to_string(r.exit_code);
    case ToolOutcome::signal:
      return "signal " + std::to_string(r.signal);
    default:
      return std::string(to_string(r.outcome));
  }
}

template <typename Map, typename Fn>
void diff_maps(const Map& a, const Map& b, Fn&& on_pair) {
  auto ia = a.begin();
  auto ib = b.begin();
  while (ia != a.end() || ib != b.end()) {
    if (ib == b.end() || (ia != a.end() && ia->first < ib->first)) {
      on_pair(ia->first, &ia->second, nullptr);
      ++ia;
    } else if (ia == a.end() || ib->first < ia->first) {
      on_pair(ib->first, nullptr, &ib->second);
      ++ib;
    } else {
      on_pair(ia->first, &ia->second, &ib->second);
      ++ia;
      ++ib;
    }
  }
}

void field(std::vector<std::string>& out, const std::string& name, const std::string& a,
           const std::string& b) {
  if (a != b) out.push_back(name + ": " + show(a) + " -> " + show(b));
}

}  // namespace

std::string describe_text_change(const std::string& a, const std::string& b, int max_lines) {
  if (!is_valid_utf8(a) || !is_valid_utf8(b)) {
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    return "binary, first difference at byte " + std::to_string(i);
  }
  auto la = lines_of(a);
  auto lb = lines_of(b);
  std::size_t head = 0;
  while (head < la.size() && head < lb.size() && la[head] == lb[head]) ++head;
  std::size_t tail = 0;
  while (tail < la.size() - head && tail < lb.size() - head &&
         la[la.size() - 1 - tail] == lb[lb.size() - 1 - tail])
    ++tail;
  std::string out = "line " + std::to_string(head + 1) + ":";
  auto side = [&](const std::vector<std::string_view>& lines, char sign) {
    std::size_t end = lines.size() - tail;
    std::size_t shown = 0;
    for (std::size_t i = head; i < end; ++i) {
      if (shown == static_cast<std::size_t>(max_lines)) {
        out += " (" + std::to_string(end - i) + " more)";
        break;
      }
      out += std::string(" ") + sign + show(lines[i]);
      ++shown;
    }
  };
  side(la, '-');
  out += " |";
  side(lb, '+');
  if (la.size() == lb.size() && head == la.size()) out = "only the final newline differs";
  return out;
}

std::vector<std::string> diff_snapshots(const Snapshot& a, const Snapshot& b) {
  std::vector<std::string> out;
  field(out, "host.label", a.host.label, b.host.label);
  field(out, "host.origin", a.host.origin, b.host.origin);
  field(out, "host.recorded_at", a.host.recorded_at, b.host.recorded_at);
  field(out, "host.recorder", a.host.recorder, b.host.recorder);
  field(out, "host.redacted", a.host.redacted ? "true" : "false",
        b.host.redacted ? "true" : "false");
  field(out, "facts.os", a.facts.os, b.facts.os);
  field(out, "facts.arch", a.facts.arch, b.facts.arch);
  field(out, "facts.kernel", a.facts.kernel, b.facts.kernel);
  field(out, "facts.page_size", std::to_string(a.facts.page_size),
        std::to_string(b.facts.page_size));
  field(out, "facts.cpus", std::to_string(a.facts.cpus), std::to_string(b.facts.cpus));
  field(out, "facts.hostname", a.facts.hostname, b.facts.hostname);

  diff_maps(a.env, b.env, [&](const std::string& name, const std::string* x, const std::string* y) {
    if (!y)
      out.push_back("env: - " + name + "=" + show(*x));
    else if (!x)
      out.push_back("env: + " + name + "=" + show(*y));
    else if (*x != *y)
      out.push_back("env: ~ " + name + ": " + show(*x) + " -> " + show(*y));
  });

  diff_maps(a.files, b.files, [&](const std::string& path, const FileEntry* x, const FileEntry* y) {
    if (!y)
      out.push_back("files: - " + path + " (" + describe_entry(*x) + ")");
    else if (!x)
      out.push_back("files: + " + path + " (" + describe_entry(*y) + ")");
    else if (!(*x == *y)) {
      std::string line = "files: ~ " + path + ": ";
      if (x->kind == FileEntry::Kind::content && y->kind == FileEntry::Kind::content)
        line += describe_text_change(x->bytes, y->bytes);
      else
        line += describe_entry(*x) + " -> " + describe_entry(*y);
      out.push_back(line);
    }
  });

  diff_maps(a.tools, b.tools,
            [&](const std::vector<std::string>& argv, const ToolEntry* x, const ToolEntry* y) {
              std::string name = shell_join(argv);
              if (!y) {
                out.push_back("tools: - " + name + " (" + describe_run(x->run) + ")");
                return;
              }
              if (!x) {
                out.push_back("tools: + " + name + " (" + describe_run(y->run) + ")");
                return;
              }
              const ToolRun& r = x->run;
              const ToolRun& s = y->run;
              std::string what = describe_run(r) != describe_run(s)
                                     ? " " + describe_run(r) + " -> " + describe_run(s) + ";"
                                     : "";
              if (r.out != s.out) what += " stdout " + describe_text_change(r.out, s.out) + ";";
              if (r.err != s.err) what += " stderr " + describe_text_change(r.err, s.err) + ";";
              if (r.truncated != s.truncated) what += " truncated changed;";
              // The wall time is not a difference in what the host answered.
              if (!what.empty()) {
                what.pop_back();
                out.push_back("tools: ~ " + name + ":" + what);
              }
            });
  return out;
}

}  // namespace hwaccel::sim
