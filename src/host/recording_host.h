// RecordingHost: wraps another Host (normally LiveHost), passes every call
// through, and keeps every answer, negative ones included, so that the run can
// be saved as a snapshot and replayed exactly.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "src/host/host.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel {

class RecordingHost : public Host {
 public:
  explicit RecordingHost(Host& inner);

  Result<std::string> read(std::string_view path) override;
  Result<std::vector<std::string>> list(std::string_view dir) override;
  Result<std::string> readlink(std::string_view path) override;
  Result<FileKind> stat(std::string_view path) override;
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout = {}) override;
  // Recorded when it is finished: a run dropped unfinished was never answered.
  std::unique_ptr<StartedRun> start(const std::vector<std::string>& argv,
                                    Timeout timeout = {}) override;
  std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                Timeout timeout = {}) override;
  bool knows_run(const std::vector<std::string>& argv) override { return inner_.knows_run(argv); }
  std::optional<std::string> env(std::string_view name) override;
  const Facts& facts() override;
  std::string now() override;
  bool knows(std::string_view path) override { return inner_.knows(path); }

  // What was recorded so far, with `host` filled from `info` (recorded_at is
  // the time now() returned). Redaction is a separate step (redaction.h).
  Snapshot snapshot(SnapshotInfo info);

 private:
  void record_error(const std::string& path, const Error& error);
  void record_present(const std::string& path);  // exists, but not as the call expected
  void put(const std::string& path, FileEntry entry);
  void record_run(const std::vector<std::string>& argv, const ToolRun& run);

  Host& inner_;
  std::mutex mutex_;
  Snapshot recorded_;                         // everything but links
  std::map<std::string, std::string> links_;  // path -> target, as readlink gave it
  std::string now_;
};

}  // namespace hwaccel
