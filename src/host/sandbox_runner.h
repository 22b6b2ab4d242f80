// `hwsim run`: runs a command on a materialized host. In a private mount namespace
// (as root, or through an unprivileged user namespace) the tree is bind-mounted
// over /sys, /dev and the recorded /proc paths, and the hostname is set in a
// private UTS namespace; the mounts die with the namespace, so nothing outside
// changes and nothing stays mounted, however the command ends. Where no namespace
// can be had, the command still runs (shims and environment work) and every path
// that could not be covered is named on stderr. The tree is read by directory
// descriptors, never through a link in it (src/host/tree_fd.h); only /sys, /dev,
// recorded /proc paths and tool shims are ever put in place (cover_tools says
// where a shim may go).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "src/host/sandbox_mask.h"
#include "src/host/tree_writer.h"

namespace hwaccel {

struct SandboxSpec {
  std::string tree;  // the materialized host (absolute)
  // Non-null: the child writes this plan to `tree` itself, into a private tmpfs
  // mounted there in its namespace (nothing reaches the disk, and it is gone with
  // the namespace); on disk where no namespace can be had. Null: already written.
  const TreePlan* plan = nullptr;
  // Non-empty: `tree` is a cached entry (src/host/tree_cache.h) that must not be
  // written: in its namespace the child mounts a tmpfs on this private folder and
  // lays `tree` under an overlay whose writes (device nodes, scratch) land there.
  // Where the overlay is refused, a tmpfs goes on `tree` and `fresh_plan()` is
  // written into it instead.
  std::string overlay_scratch;
  std::function<TreePlan()> fresh_plan;
  // With `overlay_scratch`: the cached layers the tree is mounted with (the
  // tree's folder, an empty one -> the layer's entry, its subtree in kLayerTop:
  // src/host/tree_layers.h). Each is mounted writable the same way, under an
  // overlay of its own whose writes land in that tmpfs too, and `tree_binds` puts
  // its subtree (layer_subtree) on its folder.
  std::vector<std::pair<std::string, std::string>> layers;
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // the whole environment of the command
  std::string hostname;  // "" (or one the kernel refuses): "hwsim-host", never this machine's
  std::vector<std::string> proc_present;  // see sim/mount_plan.h
  std::vector<std::string> proc_absent;
  std::vector<std::string> tool_paths;       // shims at absolute paths elsewhere (/opt/...)
  std::string shim_paths = "/.hwsim/paths";  // where in the tree those shims are (only they)
  std::string shim_dir = "/.hwsim/bin";      // the tree's shims run by name
  std::vector<DevNode> dev_nodes;            // tree placeholders made character devices
  MaskSpec masks;  // this machine's paths hidden or shown (sandbox_mask.h)
  // Tools recorded as not found that this machine has: name -> its real paths. Where
  // all of them are hidden, the tree's stand-in shim (exit 127) is removed too, so a
  // PATH search fails with ENOENT as it did on the host.
  std::map<std::string, std::vector<std::string>> hidden_tools;
  // Files of this machine bound over placeholders in the tree (this machine's
  // path -> the tree's path): the tool emulator and its log (sim/emulate/), and
  // the cached layers' subtrees once mounted (layer_subtree).
  std::vector<std::pair<std::string, std::string>> tree_binds;
  bool use_namespace = true;  // false: run without one (reports what is not covered)
  bool verbose = false;       // also say what was covered
};

struct SandboxResult {
  int exit_code = 0;  // the command's; 128+N when killed by signal N; 127/126 exec failures
  int signal = 0;     // the signal that killed it, if any
  std::string error;  // a failure before the command could start (fork)
};

// Where the child mounts `layers`[i]'s subtree (`overlay_scratch`/mI/tree), for
// `tree_binds` to put on the layer's folder of the tree.
std::string layer_subtree(const std::string& overlay_scratch, std::size_t i);

// Runs the command and waits for it. The namespace report and exec failures go
// to stderr (fd 2) from the child, before the command starts.
SandboxResult run_in_sandbox(const SandboxSpec& spec);

// Whether a private mount namespace can be had here (tries one in a child process).
bool private_mounts_available();

}  // namespace hwaccel
