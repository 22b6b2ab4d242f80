// The Host: the only door to the machine. Every probe reads files, lists
// directories, runs tools and looks at the environment through this interface,
// so a machine can be recorded into a snapshot and replayed exactly.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/vocabulary/host_types.h"
#include "src/vocabulary/result.h"

namespace hwaccel {

class Findings;

// A timeout of zero means "the host's default" (5 s unless --timeout says otherwise).
struct Timeout {
  std::chrono::milliseconds value{0};
};

// A file's bytes as Host::read_text answers: lent by a host that keeps its
// answers (a replayed snapshot, a detection's MemoHost), valid while that host
// lives, or owned. Read it as a std::string_view: a 446 KB /proc/cpuinfo (the
// 224-CPU DGX H100 fixture) read six times in one detection is then never
// copied (issue 37).
class FileText {
 public:
  FileText() = default;
  FileText(std::string owned) : owned_(std::move(owned)) {}
  static FileText lent(const std::string& text) {
    FileText t;
    t.lent_ = &text;
    return t;
  }
  std::string_view view() const {
    return lent_ ? std::string_view(*lent_) : std::string_view(owned_);
  }
  operator std::string_view() const { return view(); }
  // The same bytes, lent from this one (which must outlive the answer).
  FileText borrow() const { return lent(lent_ ? *lent_ : owned_); }

 private:
  const std::string* lent_ = nullptr;
  std::string owned_;
};

// A run that has started and not yet been waited for (Host::start).
class StartedRun {
 public:
  virtual ~StartedRun() = default;
  // Waits for the run to end (its deadline counts from the start; nothing reads its output before
  // finish(), so ask soon); once. Dropped unfinished, it is stopped (killed and reaped).
  virtual ToolRun finish() = 0;
  // True when finish() answers at once, the run having never started (a tool on
  // no folder of PATH, say): nothing to wait for.
  virtual bool answered() const { return false; }
  // True when the run is under way (a process was started), not asked at finish().
  virtual bool under_way() const { return false; }
};

// A run already answered (a tool that could not start, say).
std::unique_ptr<StartedRun> finished_run(ToolRun answer);

// Waits for all of `runs` at once (one thread each, the first on the calling
// thread; in turn where no thread can be started): the time of the slowest.
std::vector<ToolRun> finish_together(std::vector<std::unique_ptr<StartedRun>> runs);

class Host {
 public:
  virtual ~Host() = default;
  // Whole contents, read to EOF (never by stat size: sysfs lies about sizes).
  virtual Result<std::string> read(std::string_view path) = 0;
  // The same answer as read(), lent where the host keeps it (see FileText): for
  // readers that only look at the bytes. By default, read() and owned.
  virtual Result<FileText> read_text(std::string_view path) {
    auto whole = read(path);
    if (!whole) return whole.error();
    return FileText(std::move(whole).value());
  }
  // At most the first `max_bytes` of a file (a model file's header: never its
  // weights). Hosts that hold only small files read it whole and cut it.
  virtual Result<std::string> read_head(std::string_view path, std::size_t max_bytes) {
    auto whole = read(path);
    if (!whole || whole->size() <= max_bytes) return whole;
    return whole->substr(0, max_bytes);
  }
  // Names in a directory, sorted, without "." and "..".
  virtual Result<std::vector<std::string>> list(std::string_view dir) = 0;
  virtual Result<std::string> readlink(std::string_view path) = 0;
  // Follows links, like stat(2).
  virtual Result<FileKind> stat(std::string_view path) = 0;
  virtual ToolRun run(const std::vector<std::string>& argv, Timeout timeout = {}) = 0;
  // Starts a run and returns at once; its finish() waits for it. The machine
  // starts the process here, on the calling thread (a probe's thread only waits);
  // by default, a host that cannot start a run without waiting for it runs it
  // at finish().
  virtual std::unique_ptr<StartedRun> start(const std::vector<std::string>& argv,
                                            Timeout timeout = {});
  // Several runs started together, answered in the order asked: the time of the
  // slowest, not the sum. By default each is started (start()) in turn and all are
  // waited for at once (finish_together); a host that answers from memory answers
  // them in order, so a replay is exact whatever the machine's timing.
  virtual std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                        Timeout timeout = {});
  // Whether the host can answer this run at all, as knows() for a path: a
  // replayed snapshot cannot for a run it never recorded. A probe that starts a
  // run before it knows it needs it (or asks a new tool) asks this first, so an
  // older recording replays with the runs it was recorded with and no misses.
  virtual bool knows_run(const std::vector<std::string>& /*argv*/) { return true; }
  virtual std::optional<std::string> env(std::string_view name) = 0;
  virtual const Facts& facts() = 0;
  // The discovery time as RFC 3339 UTC ("2026-11-29T15:00:00Z"); empty when the
  // host has none (a hand-written snapshot without recorded_at).
  virtual std::string now() = 0;
  // Whether the host can answer for `path` at all. A machine always can; a
  // replayed snapshot cannot for a path it never mentions (nor anything below
  // it, nor a recorded answer on the way): it was recorded before any probe
  // looked there, and its ENOENT means "not recorded", not "not there". A probe
  // that adds a new look at the machine uses this to keep older recordings
  // replaying as they were recorded.
  virtual bool knows(std::string_view /*path*/) { return true; }
  // Where findings worked out from this host's files may be kept (Findings):
  // only a host that answers the same every time while it lives has one. Null
  // by default: a machine's files change.
  virtual Findings* findings() { return nullptr; }
};

}  // namespace hwaccel
