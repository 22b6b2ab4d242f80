// What `hwsim run`'s child lays over this machine's files in its private mount
// namespace before the command starts: the tree's /dev, the recorded /proc paths,
// the shims of tools run by absolute path, and files of this machine bound into
// the tree. Each says what it covered and what it could not (and why).
#pragma once

#include <string>
#include <vector>

#include "src/host/sandbox_dev_node.h"
#include "src/host/sandbox_runner.h"
#include "src/host/tree_fd.h"

namespace hwaccel::sandbox {

// Whether `path` exists here (not following a last link); is a folder (following).
bool exists(const std::string& path);
bool is_dir(const std::string& path);

// Binds the tree's `rel` (reached without following any link in the tree) over
// the real `target`.
bool bind_from_tree(int tree, const std::string& rel, const std::string& target, Walk walk,
                    std::string& why);

// /dev of the simulated host, plus what any program needs to run at all. True when
// the tree's /dev is bound over this machine's.
bool cover_dev(const SandboxSpec& spec, int tree, DevNodeMaker& nodes,
               std::vector<std::string>& uncovered, std::vector<std::string>& covered);

// The recorded /proc paths over the real ones (docs/hwsim.md: what procfs allows).
void cover_proc(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                std::vector<std::string>& covered);

// Tools run by absolute path: where this machine has nothing at the path, laid into
// a folder below /opt with an overlay; anything else is not presented, and said so.
void cover_tools(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                 std::vector<std::string>& covered);

// spec.tree_binds: each file of this machine over its placeholder in the tree.
void cover_tree_binds(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                      std::vector<std::string>& covered);

// A tool recorded as not found whose every real copy is now hidden needs no
// stand-in shim: without it a PATH search fails with ENOENT, as on the host.
void hide_stand_in_shims(const SandboxSpec& spec, int tree);

}  // namespace hwaccel::sandbox
