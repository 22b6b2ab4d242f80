// SnapshotHost: answers every Host call from a snapshot, byte for byte, and never
// touches the real disk for anything the snapshot holds or lacks.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/host/findings.h"
#include "src/host/host.h"
#include "src/snapshot/file_index.h"
#include "src/snapshot/snapshot.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel {

class SnapshotHost : public Host {
 public:
  explicit SnapshotHost(Snapshot snapshot);
  // Answers from `snapshot` itself, not a copy: it must outlive this host (a
  // detection run over a filled snapshot of 16,000 files, sim/emulate/emulator_plan).
  struct Lent {};
  SnapshotHost(const Snapshot& snapshot, Lent);

  Result<std::string> read(std::string_view path) override;
  // Lent from the snapshot: valid while this host lives.
  Result<FileText> read_text(std::string_view path) override;
  Result<std::vector<std::string>> list(std::string_view dir) override;
  Result<std::string> readlink(std::string_view path) override;
  Result<FileKind> stat(std::string_view path) override;
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout = {}) override;
  // In order, on the calling thread: the answers are recorded, not waited for.
  std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                Timeout timeout = {}) override;
  bool knows_run(const std::vector<std::string>& argv) override {
    return snapshot_.tools.count(argv) > 0;
  }
  std::optional<std::string> env(std::string_view name) override;
  const Facts& facts() override { return snapshot_.facts; }
  std::string now() override { return snapshot_.host.recorded_at; }
  // True when the snapshot records `path`, something below it, an answer on
  // the way to it (an absent or unreadable folder, a file where a folder would
  // be) or a `dir:` listing of a folder above it.
  bool knows(std::string_view path) override;
  // Kept for this host's life, the snapshot never changing; none for a class
  // derived from it, which may answer anew each time (the reliability tests'
  // flapping host).
  Findings* findings() override;

  const Snapshot& snapshot() const { return snapshot_; }
  // Tool runs the probes asked for that the snapshot does not hold, sorted, once each.
  std::vector<std::vector<std::string>> misses() const;

 private:
  struct Found {
    const FileEntry* entry = nullptr;  // null: not recorded
    std::string path;                  // the path after following links
    bool implied_dir = false;          // not recorded, but files are recorded below it
  };
  Result<Found> resolve(std::string_view path, bool follow_last) const;
  bool has_children(const std::string& dir) const;
  const FileEntry* entry_at(const std::string& path, std::uint64_t hash) const;

  Snapshot owned_;            // empty when lent
  const Snapshot& snapshot_;  // owned_, or the lent one
  FileIndex index_;           // snapshot_.files by exact path, unless it gave up
  mutable std::mutex mutex_;
  std::vector<std::vector<std::string>> misses_;
  // Listings implied by the paths below a folder (none recorded for it), worked
  // out once: eight backends list /sys/bus/pci/devices, each a walk over every
  // path below it. The snapshot never changes, so neither do they.
  std::mutex lists_mutex_;
  std::unordered_map<std::string, std::vector<std::string>> implied_lists_;
  Findings findings_;
};

// Reads and parses a snapshot file. The one place a snapshot file is opened.
struct LoadedSnapshot {
  std::optional<Snapshot> snapshot;
  std::optional<SnapshotError> error;
  std::string text;  // the file's bytes, when asked for (`hwsim run` keys its tree cache by them)
};
// With `inside` (a folder of snapshots: `hwsim fleet DIR`, `hwsim check DIR`),
// `path` is a file of that folder, and a link that leads out of it is refused
// (EXDEV), its target never read.
LoadedSnapshot load_snapshot_file(const std::string& path, bool keep_text = false,
                                  const std::string& inside = "");

}  // namespace hwaccel
