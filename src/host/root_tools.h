// Under --root DIR the tree is the machine: a tool (nvidia-smi, vulkaninfo,
// rocm-smi, the NVML helper) runs only where the tree says that machine has it,
// its program in one of the tree's PATH folders, or where the user asks for this
// machine's tools (--root-tools). Otherwise the run is answered at once as
// not-found, with a line that says why it was not run; the same tree then gives
// the same report on every machine.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hwaccel {

// The folders a tree's programs are looked for in: the usual ones of a Linux
// PATH, then `path_env`'s (this process's PATH) as folders of the tree.
inline constexpr std::string_view kTreePathDirs =
    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// nullopt when `tool` is the tree's: an absolute name that is a file in the
// tree, or a name found in a PATH folder of the tree, or in a folder of
// `path_env` that lies inside `root` on this machine (a tree's own bin folder,
// as hwsim materialize's .hwsim/bin, put on PATH). Otherwise the stderr line
// that says why it was not run, naming --root-tools.
std::optional<std::string> tool_not_in_tree(const std::string& root, std::string_view tool,
                                            std::string_view path_env);

}  // namespace hwaccel
