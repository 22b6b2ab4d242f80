#include "src/host/recording_host.h"

#include <functional>
#include <map>
#include <memory>
#include <utility>

#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

// How strongly an answer describes a path: a later, weaker answer for the same
// path (stat after read) must not overwrite a stronger one.
int strength(const FileEntry& e) {
  switch (e.kind) {
    case FileEntry::Kind::content:
    case FileEntry::Kind::dir:
    case FileEntry::Kind::link:
      return 3;
    case FileEntry::Kind::error:
      return 2;
    case FileEntry::Kind::node:
      return 1;
    case FileEntry::Kind::absent:
      return 0;
  }
  return 0;
}

// Where `path` really is, following the recorded links on every component
// (the final one too), as SnapshotHost does on replay. Returns `path` itself
// when a link loops or leaves the tree.
std::string resolve_through_links(const std::string& path,
                                  const std::map<std::string, std::string>& links) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {
    auto parts = path_components(current);
    std::string prefix = "/";
    bool followed = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::string candidate = join_path(prefix, parts[i]);
      auto link = links.find(candidate);
      if (link != links.end()) {
        std::string target =
            link->second.starts_with("/") ? link->second : join_path(prefix, link->second);
        for (std::size_t j = i + 1; j < parts.size(); ++j) target = join_path(target, parts[j]);
        auto normalized = normalize_absolute(target);
        if (!normalized) return path;
        current = *normalized;
        followed = true;
        break;
      }
      prefix = candidate;
    }
    if (!followed) return current;
  }
  return path;
}

// Answers recorded under a path that goes through a recorded link belong at
// the link's target: replay follows links on every component, so that is
// where it will look (a probe that readlinks card1/device and then reads
// card1/device/mem_info_vram_total must find the file on replay).
std::map<std::string, FileEntry> place_behind_links(
    std::map<std::string, FileEntry> files, const std::map<std::string, std::string>& links) {
  std::map<std::string, FileEntry> placed;
  auto keep = [&](const std::string& path, FileEntry entry) {
    auto [it, inserted] = placed.emplace(path, entry);
    if (!inserted && strength(entry) > strength(it->second)) it->second = std::move(entry);
  };
  for (auto& [path, entry] : files) keep(resolve_through_links(path, links), std::move(entry));
  // A link sits at its own path, reached through its parent; it replaces
  // whatever was seen through it there (that was placed at its target).
  for (const auto& [path, target] : links) {
    std::string parent = resolve_through_links(parent_dir(path), links);
    placed[join_path(parent, path.substr(path.rfind('/') + 1))] = FileEntry::of_link(target);
  }
  return placed;
}

}  // namespace

RecordingHost::RecordingHost(Host& inner) : inner_(inner) {}

void RecordingHost::put(const std::string& raw_path, FileEntry entry) {
  auto normalized = normalize_absolute(raw_path);
  if (!normalized) return;  // a relative path is refused by every host; nothing to replay
  std::lock_guard<std::mutex> lock(mutex_);
  // Links are kept apart: the same path read through the link (a listing of
  // card1/device) must not replace the link; snapshot() puts both in place.
  if (entry.kind == FileEntry::Kind::link) {
    links_[*normalized] = entry.target;
    return;
  }
  auto [it, inserted] = recorded_.files.emplace(*normalized, entry);
  if (!inserted && strength(entry) >= strength(it->second)) it->second = std::move(entry);
}

void RecordingHost::record_error(const std::string& path, const Error& error) {
  if (error.code == EINVAL && !normalize_absolute(path)) return;
  if (error.code == ENOENT) {
    put(path, FileEntry::of_absent());
  } else if (error.code == EISDIR || error.code == ENOTDIR || error.code == EINVAL) {
    record_present(path);
  } else {
    put(path, FileEntry::of_error(error.code));
  }
}

// The path exists but the call did not fit it (read of a folder, readlink of a
// file): record what it is so that replay gives the same error.
void RecordingHost::record_present(const std::string& path) {
  auto kind = inner_.stat(path);
  if (!kind) {
    if (kind.error().code == ENOENT) {
      // A dangling link, or a path under a file: keep the link if there is one.
      if (auto target = inner_.readlink(path))
        put(path, FileEntry::of_link(*target));
      else
        put(path, FileEntry::of_absent());
    } else if (kind.error().code != ENOTDIR) {
      put(path, FileEntry::of_error(kind.error().code));
    }
    return;
  }
  if (auto target = inner_.readlink(path)) {
    put(path, FileEntry::of_link(*target));
    return;
  }
  switch (*kind) {
    case FileKind::directory:
      if (auto names = inner_.list(path)) put(path, FileEntry::of_dir(*names));
      return;
    case FileKind::regular:
      if (auto bytes = inner_.read(path))
        put(path, FileEntry::of_content(*bytes));
      else
        put(path, FileEntry::of_error(bytes.error().code));
      return;
    default:
      put(path, FileEntry::of_node(*kind));
      return;
  }
}

Result<std::string> RecordingHost::read(std::string_view path) {
  std::string p(path);
  auto result = inner_.read(path);
  if (result)
    put(p, FileEntry::of_content(*result));
  else
    record_error(p, result.error());
  return result;
}

Result<std::vector<std::string>> RecordingHost::list(std::string_view dir) {
  std::string p(dir);
  auto result = inner_.list(dir);
  if (result)
    put(p, FileEntry::of_dir(*result));
  else
    record_error(p, result.error());
  return result;
}

Result<std::string> RecordingHost::readlink(std::string_view path) {
  std::string p(path);
  auto result = inner_.readlink(path);
  if (result)
    put(p, FileEntry::of_link(*result));
  else
    record_error(p, result.error());
  return result;
}

Result<FileKind> RecordingHost::stat(std::string_view path) {
  std::string p(path);
  auto result = inner_.stat(path);
  if (result)
    record_present(p);
  else
    record_error(p, result.error());
  return result;
}

ToolRun RecordingHost::run(const std::vector<std::string>& argv, Timeout timeout) {
  ToolRun result = inner_.run(argv, timeout);
  record_run(argv, result);
  return result;
}

namespace {

class RecordedRun : public StartedRun {
 public:
  RecordedRun(std::unique_ptr<StartedRun> inner, std::vector<std::string> argv,
              std::function<void(const std::vector<std::string>&, const ToolRun&)> record)
      : inner_(std::move(inner)), argv_(std::move(argv)), record_(std::move(record)) {}
  ToolRun finish() override {
    ToolRun run = inner_->finish();
    record_(argv_, run);
    return run;
  }
  bool answered() const override { return inner_->answered(); }
  bool under_way() const override { return inner_->under_way(); }

 private:
  std::unique_ptr<StartedRun> inner_;
  std::vector<std::string> argv_;
  std::function<void(const std::vector<std::string>&, const ToolRun&)> record_;
};

}  // namespace

std::unique_ptr<StartedRun> RecordingHost::start(const std::vector<std::string>& argv,
                                                 Timeout timeout) {
  return std::make_unique<RecordedRun>(inner_.start(argv, timeout), argv,
                                       [this](const std::vector<std::string>& asked,
                                              const ToolRun& run) { record_run(asked, run); });
}

// Passed through whole, so the inner host starts them together as it would.
std::vector<ToolRun> RecordingHost::run_many(const std::vector<std::vector<std::string>>& argvs,
                                             Timeout timeout) {
  auto results = inner_.run_many(argvs, timeout);
  for (std::size_t i = 0; i < argvs.size() && i < results.size(); ++i)
    record_run(argvs[i], results[i]);
  return results;
}

void RecordingHost::record_run(const std::vector<std::string>& argv, const ToolRun& run) {
  ToolEntry entry;
  entry.argv = argv;
  entry.run = run;
  entry.has_ms = true;
  std::lock_guard<std::mutex> lock(mutex_);
  recorded_.tools[argv] = std::move(entry);
}

std::optional<std::string> RecordingHost::env(std::string_view name) {
  auto value = inner_.env(name);
  if (value) {
    std::lock_guard<std::mutex> lock(mutex_);
    recorded_.env[std::string(name)] = *value;
  }
  return value;
}

const Facts& RecordingHost::facts() {
  return inner_.facts();
}

std::string RecordingHost::now() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (now_.empty()) now_ = inner_.now();
  return now_;
}

Snapshot RecordingHost::snapshot(SnapshotInfo info) {
  std::string when = now();
  const Facts& facts = inner_.facts();
  // PATH decides which tools were found; keep it beside the runs it explains.
  auto path = inner_.env("PATH");
  // The user's name and home, so that redaction finds the name in paths outside
  // /home (/var/lib/jenkins, /srv/alice); redaction replaces the values themselves.
  auto user = inner_.env("USER"), logname = inner_.env("LOGNAME"), home = inner_.env("HOME");
  std::lock_guard<std::mutex> lock(mutex_);
  Snapshot s = recorded_;
  s.host = std::move(info);
  s.host.recorded_at = when;
  s.facts = facts;
  if (path) s.env["PATH"] = *path;
  if (user) s.env["USER"] = *user;
  if (logname) s.env["LOGNAME"] = *logname;
  if (home) s.env["HOME"] = *home;
  s.files = place_behind_links(std::move(s.files), links_);
  return s;
}

}  // namespace hwaccel
