#include "src/host/snapshot_host.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <typeinfo>

#include "src/host/text_file.h"
#include "src/snapshot/limits.h"
#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

constexpr int kMaxLinkHops = 40;

}  // namespace

SnapshotHost::SnapshotHost(Snapshot snapshot)
    : owned_(std::move(snapshot)), snapshot_(owned_), index_(snapshot_.files) {}

SnapshotHost::SnapshotHost(const Snapshot& snapshot, Lent)
    : snapshot_(snapshot), index_(snapshot_.files) {}

// The index, or the ordered map where the index gave up on a snapshot whose
// paths crowd its slots (a hostile one: src/snapshot/file_index.h).
const FileEntry* SnapshotHost::entry_at(const std::string& path, std::uint64_t hash) const {
  if (!index_.gave_up()) return index_.find(path, hash);
  auto it = snapshot_.files.find(path);
  return it == snapshot_.files.end() ? nullptr : &it->second;
}

bool SnapshotHost::has_children(const std::string& dir) const {
  std::string prefix = dir == "/" ? "/" : dir + "/";
  auto it = snapshot_.files.lower_bound(prefix);
  return it != snapshot_.files.end() && it->first.rfind(prefix, 0) == 0;
}

// Walks the path a component at a time so that a link recorded for any folder
// on the way (/sys/bus/pci/devices/X -> ../../../devices/...) is followed.
// The names still to walk are views into `path` and into the recorded link
// targets (never changed while the host lives), and the folder reached so far
// is one string grown and cut in place, its hash grown with it (one per depth,
// for ".."): a detection asks hundreds of paths, many through a link, and each
// folder on the way is one probe of the index, allocating nothing.
Result<SnapshotHost::Found> SnapshotHost::resolve(std::string_view path, bool follow_last) const {
  // As normalize_absolute: absolute, no NUL; "." dropped, ".." lexical (clamped at "/").
  if (path.empty() || path.front() != '/' || path.find('\0') != std::string_view::npos)
    return make_error(EINVAL, path);
  // Kept per thread, cleared, not allocated again for each of a detection's
  // thousand-odd paths (resolve is const and may run on several threads).
  thread_local std::vector<std::string_view> kept_names;
  std::vector<std::string_view>& pending = kept_names;  // the next name last
  pending.clear();
  auto push_components = [&pending](std::string_view text, bool lexical_dots) {
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && text[i] == '/') ++i;
      std::size_t start = i;
      while (i < text.size() && text[i] != '/') ++i;
      if (i == start) continue;
      std::string_view name = text.substr(start, i - start);
      if (name == ".") continue;
      if (lexical_dots && name == "..") {
        if (!pending.empty()) pending.pop_back();
        continue;
      }
      pending.push_back(name);
    }
  };
  push_components(path, true);
  std::reverse(pending.begin(), pending.end());
  std::string current;  // "" is "/"
  current.reserve(path.size());
  thread_local std::vector<std::uint64_t> kept_hashes;
  std::vector<std::uint64_t>& hashes = kept_hashes;  // of `current` at each depth
  hashes.assign(1, FileIndex::empty());
  const FileEntry* reached = nullptr;  // the entry at `current`, when the last step found it
  int hops = 0;
  while (!pending.empty()) {
    std::string_view name = pending.back();
    pending.pop_back();
    reached = nullptr;
    if (name == "..") {
      current.resize(current.rfind('/') == std::string::npos ? 0 : current.rfind('/'));
      if (hashes.size() > 1) hashes.pop_back();
      if (!current.empty()) reached = entry_at(current, hashes.back());
      continue;
    }
    const std::size_t parent = current.size();
    current += '/';
    current += name;
    hashes.push_back(FileIndex::extend(FileIndex::extend(hashes.back(), "/"), name));
    const FileEntry* e = entry_at(current, hashes.back());
    bool last = pending.empty();
    if (e && e->kind == FileEntry::Kind::link && (!last || follow_last)) {
      if (++hops > kMaxLinkHops) return make_error(ELOOP, path);
      const std::string& target = e->target;
      if (!target.empty() && target.front() == '/') {
        current.clear();
        hashes.resize(1);
      } else {
        current.resize(parent);
        hashes.pop_back();
      }
      // The target's names go before the rest, its ".." walked as they come.
      std::size_t rest = pending.size();
      push_components(target, false);
      std::reverse(pending.begin() + std::ptrdiff_t(rest), pending.end());
      if (pending.empty() && !current.empty()) reached = entry_at(current, hashes.back());
      continue;
    }
    if (!last && e) {
      // A recorded answer on the way decides: absent or an error stops the walk.
      if (e->kind == FileEntry::Kind::absent) return make_error(ENOENT, path);
      if (e->kind == FileEntry::Kind::error) return make_error(e->error_code, path);
      if (e->kind == FileEntry::Kind::content || e->kind == FileEntry::Kind::node)
        return make_error(ENOTDIR, path);
    }
    reached = e;
  }
  if (current.empty()) {
    current = "/";
    reached = entry_at(current, FileIndex::extend(FileIndex::empty(), current));
  }
  Found found;
  if (reached) {
    found.entry = reached;
  } else {
    found.implied_dir = current == "/" || has_children(current);
  }
  found.path = std::move(current);
  return found;
}

Findings* SnapshotHost::findings() {
  return typeid(*this) == typeid(SnapshotHost) ? &findings_ : nullptr;
}

bool SnapshotHost::knows(std::string_view path) {
  auto found = resolve(path, true);
  if (!found) return found.error().code != EINVAL;  // an answer on the way
  if (found->entry || found->implied_dir) return true;
  // The nearest recorded listing above decides: a name it lacks was not there.
  std::string child = found->path;
  while (child != "/") {
    std::string dir = parent_dir(child);
    auto it = snapshot_.files.find(dir);
    if (it != snapshot_.files.end() && it->second.kind == FileEntry::Kind::dir) {
      std::string name = child.substr(child.rfind('/') + 1);
      const auto& names = it->second.names;
      return std::find(names.begin(), names.end(), name) == names.end();
    }
    child = dir;
  }
  return false;
}

Result<std::string> SnapshotHost::read(std::string_view path) {
  auto text = read_text(path);
  if (!text) return text.error();
  return std::string(text->view());
}

Result<FileText> SnapshotHost::read_text(std::string_view path) {
  auto found = resolve(path, true);
  if (!found) return found.error();
  const FileEntry* e = found->entry;
  if (!e) return make_error(found->implied_dir ? EISDIR : ENOENT, path);
  switch (e->kind) {
    case FileEntry::Kind::content:
      return FileText::lent(e->bytes);
    case FileEntry::Kind::absent:
      return make_error(ENOENT, path);
    case FileEntry::Kind::error:
      return make_error(e->error_code, path);
    case FileEntry::Kind::dir:
      return make_error(EISDIR, path);
    case FileEntry::Kind::node:
      return make_error(EIO, std::string(path) + " (device node: contents not recorded)");
    case FileEntry::Kind::link:
      return make_error(ELOOP, path);  // unreachable: links are followed
  }
  return make_error(EIO, path);
}

Result<std::vector<std::string>> SnapshotHost::list(std::string_view dir) {
  auto found = resolve(dir, true);
  if (!found) return found.error();
  if (const FileEntry* e = found->entry) {
    switch (e->kind) {
      case FileEntry::Kind::dir:
        return e->names;
      case FileEntry::Kind::absent:
        return make_error(ENOENT, dir);
      case FileEntry::Kind::error:
        return make_error(e->error_code, dir);
      default:
        return make_error(ENOTDIR, dir);
    }
  }
  if (!found->implied_dir) return make_error(ENOENT, dir);
  std::lock_guard<std::mutex> lock(lists_mutex_);
  if (auto known = implied_lists_.find(found->path); known != implied_lists_.end())
    return known->second;
  // No listing recorded: the children implied by every path below it.
  std::string prefix = found->path == "/" ? "/" : found->path + "/";
  std::set<std::string> names;
  for (auto it = snapshot_.files.lower_bound(prefix);
       it != snapshot_.files.end() && it->first.rfind(prefix, 0) == 0; ++it) {
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    std::string name(rest.substr(0, rest.find('/')));
    // A recorded absence below is not a child unless something else is there.
    bool is_leaf = rest.find('/') == std::string_view::npos;
    if (is_leaf && it->second.kind == FileEntry::Kind::absent) continue;
    names.insert(name);
  }
  return implied_lists_.emplace(found->path, std::vector<std::string>(names.begin(), names.end()))
      .first->second;
}

Result<std::string> SnapshotHost::readlink(std::string_view path) {
  auto found = resolve(path, false);
  if (!found) return found.error();
  const FileEntry* e = found->entry;
  if (!e) return make_error(found->implied_dir ? EINVAL : ENOENT, path);
  if (e->kind == FileEntry::Kind::link) return e->target;
  if (e->kind == FileEntry::Kind::absent) return make_error(ENOENT, path);
  if (e->kind == FileEntry::Kind::error) return make_error(e->error_code, path);
  return make_error(EINVAL, path);
}

Result<FileKind> SnapshotHost::stat(std::string_view path) {
  auto found = resolve(path, true);
  if (!found) return found.error();
  const FileEntry* e = found->entry;
  if (!e) {
    if (found->implied_dir) return FileKind::directory;
    return make_error(ENOENT, path);
  }
  switch (e->kind) {
    case FileEntry::Kind::content:
      return FileKind::regular;
    case FileEntry::Kind::dir:
      return FileKind::directory;
    case FileEntry::Kind::node:
      return e->node_type;
    case FileEntry::Kind::absent:
      return make_error(ENOENT, path);
    case FileEntry::Kind::error:
      return make_error(e->error_code, path);
    case FileEntry::Kind::link:
      return make_error(ELOOP, path);
  }
  return make_error(EIO, path);
}

ToolRun SnapshotHost::run(const std::vector<std::string>& argv, Timeout) {
  auto it = snapshot_.tools.find(argv);
  if (it != snapshot_.tools.end()) return it->second.run;
  std::lock_guard<std::mutex> lock(mutex_);
  misses_.push_back(argv);
  ToolRun missing;
  missing.outcome = ToolOutcome::not_found;
  return missing;
}

std::vector<ToolRun> SnapshotHost::run_many(const std::vector<std::vector<std::string>>& argvs,
                                            Timeout timeout) {
  std::vector<ToolRun> runs;
  runs.reserve(argvs.size());
  for (const auto& argv : argvs) runs.push_back(run(argv, timeout));
  return runs;
}

std::optional<std::string> SnapshotHost::env(std::string_view name) {
  auto it = snapshot_.env.find(std::string(name));
  if (it == snapshot_.env.end()) return std::nullopt;
  return it->second;
}

std::vector<std::vector<std::string>> SnapshotHost::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto sorted = misses_;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  return sorted;
}

LoadedSnapshot load_snapshot_file(const std::string& path, bool keep_text,
                                  const std::string& inside) {
  LoadedSnapshot loaded;
  // One byte past the limit is enough for parse_snapshot to refuse it with its
  // own message, without reading a huge file whole.
  auto text = inside.empty() ? read_text_file(path, kMaxSnapshotBytes)
                             : read_text_file_inside(inside, path, kMaxSnapshotBytes);
  if (!text && text.error().code == EFBIG) {
    loaded.error = SnapshotError{
        path, 0, 0,
        "larger than the " + std::to_string(kMaxSnapshotBytes >> 20) + " MiB a snapshot may be"};
    return loaded;
  }
  if (!text) {
    // The message without the path SnapshotError puts first ("a FIFO, not a
    // regular file", "No such file or directory").
    std::string message = text.error().message;
    if (message.rfind(path + ": ", 0) == 0) message.erase(0, path.size() + 2);
    loaded.error = SnapshotError{path, 0, 0, message};
    return loaded;
  }
  Snapshot snapshot;
  // Kept text is read as a view; otherwise the largest file may keep the
  // text's buffer (a 224-CPU /proc/cpuinfo: no second 446 KB of fresh pages).
  std::string& bytes = text.value();
  auto error = keep_text ? parse_snapshot(bytes, path, snapshot)
                         : parse_snapshot_in_place(bytes, path, snapshot);
  if (error) {
    loaded.error = std::move(error);
  } else {
    loaded.snapshot = std::move(snapshot);
    if (keep_text) loaded.text = std::move(bytes);
  }
  return loaded;
}

}  // namespace hwaccel
