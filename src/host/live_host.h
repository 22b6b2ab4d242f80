// LiveHost: the real machine, or a tree laid out like "/" (--root DIR) whose
// paths resolve under DIR and whose links may not lead out of it. On the
// machine, /sys, /proc and /dev are each a tree no read leaves through a link
// (src/host/inside_tree.h); with `confine`, every path is in that one folder.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "src/host/host.h"
#include "src/host/inside_tree.h"

namespace hwaccel {

struct LiveHostOptions {
  std::string root;  // empty: the real "/"
  // Under root: run this machine's tools even where the tree has none of them
  // (--root-tools). Without it a tool runs only where the tree has its program
  // (src/host/root_tools.h); otherwise the run is not-found, saying why.
  bool root_tools = false;
  // Non-empty (without root): every path asked must be in this folder, and no
  // link on the way may lead out of it (a model folder, a corpus of snapshots).
  std::string confine{};
  std::chrono::milliseconds default_timeout{5000};
  std::size_t output_cap = 16u << 20;  // bytes kept per stream; the rest is drained and dropped
};

class LiveHost : public Host {
 public:
  explicit LiveHost(LiveHostOptions options = {});

  Result<std::string> read(std::string_view path) override;
  Result<std::string> read_head(std::string_view path, std::size_t max_bytes) override;
  // The size of a regular file as fstat says (a model file's, to check that
  // the data its header places is there), refused as read_head refuses.
  Result<std::uint64_t> regular_file_size(std::string_view path);
  Result<std::vector<std::string>> list(std::string_view dir) override;
  Result<std::string> readlink(std::string_view path) override;
  Result<FileKind> stat(std::string_view path) override;
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout = {}) override;
  std::unique_ptr<StartedRun> start(const std::vector<std::string>& argv,
                                    Timeout timeout = {}) override;
  std::optional<std::string> env(std::string_view name) override;
  // This machine's whole environment, as this process got it (the first of a
  // name twice; entries without a name left out): what `hwsim run` hands on.
  std::map<std::string, std::string> environment();
  const Facts& facts() override;
  std::string now() override;
  // A machine answers for every path. A host simulated by `hwsim run`
  // (HWSIM_ROOT in the environment) stands for another machine only in /sys,
  // /proc and /dev: the rest (/etc, /usr, a home folder) is this machine's, so
  // it is not known for the other one. A tree (--root) is the machine: it
  // answers for /sys, /proc and /dev, and for every path when it has /etc or
  // /usr (a whole machine's tree: a missing manifest or home folder is missing
  // there); a gathered tree of /sys and /proc alone says nothing about the rest.
  bool knows(std::string_view path) override;

 private:
  // The tree a path's reads stay in; nullptr under --root (resolved inside the
  // root) and for the machine's other folders (its own userland, followed freely).
  InsideTree* tree_for(std::string_view path);

  LiveHostOptions options_;
  std::unique_ptr<InsideTree> confined_;
  bool stands_for_another_machine_ = false;
  // Asked for on first use: a LiveHost made only to read one variable (the
  // report's NO_COLOR) costs no uname or CPU count.
  std::once_flag facts_once_;
  Facts facts_;
};

}  // namespace hwaccel
