// MemoHost: one detection's view of the machine. Each file, directory listing,
// link and stat is asked of the inner host once and then answered from memory.
// Eight backends walk the PCI bus and two read /proc/cpuinfo (300 KB, slow to
// generate on a big server); through a MemoHost that is one walk and one read,
// and every backend sees the same answer. Tool runs, the environment, the
// facts and the clock pass straight through. Safe to share between threads.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/host/findings.h"
#include "src/host/host.h"

namespace hwaccel {

class MemoHost : public Host {
 public:
  explicit MemoHost(Host& inner) : inner_(inner) {}

  Result<std::string> read(std::string_view path) override;
  // Lent from the memo (or from the inner host, where it lends): valid while
  // this MemoHost lives.
  Result<FileText> read_text(std::string_view path) override;
  Result<std::vector<std::string>> list(std::string_view dir) override;
  Result<std::string> readlink(std::string_view path) override;
  Result<FileKind> stat(std::string_view path) override;
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout = {}) override {
    return inner_.run(argv, timeout);
  }
  std::unique_ptr<StartedRun> start(const std::vector<std::string>& argv,
                                    Timeout timeout = {}) override {
    return inner_.start(argv, timeout);
  }
  std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                Timeout timeout = {}) override {
    return inner_.run_many(argvs, timeout);
  }
  bool knows_run(const std::vector<std::string>& argv) override { return inner_.knows_run(argv); }
  std::optional<std::string> env(std::string_view name) override { return inner_.env(name); }
  const Facts& facts() override { return inner_.facts(); }
  std::string now() override { return inner_.now(); }
  bool knows(std::string_view path) override { return inner_.knows(path); }
  // Its own: worked out from the answers it remembers, the same for the whole
  // detection.
  Findings* findings() override { return &findings_; }

 private:
  // Hashed, looked up by string_view: a detection asks about a thousand paths
  // that share long prefixes (/sys/bus/pci/devices/...), which an ordered map
  // compares again and again. Its nodes, like a map's, never move.
  struct PathHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  template <typename T>
  using Memo = std::unordered_map<std::string, Result<T>, PathHash, std::equal_to<>>;

  // The remembered answer for `key`, asking `ask` the first time. The lock is
  // not held while asking: two threads may ask at once, and the first answer
  // stored is the one both keep from then on.
  template <typename T, typename Ask>
  Result<T> remembered(Memo<T>& memo, std::string_view key, Ask ask);

  Host& inner_;
  std::mutex mutex_;
  Memo<FileText> reads_;  // as the inner host's read_text answered
  Memo<std::vector<std::string>> lists_;
  Memo<std::string> links_;
  Memo<FileKind> stats_;
  Findings findings_;
};

}  // namespace hwaccel
