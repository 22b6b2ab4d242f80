// --root-tools, as every command that reads a --root tree takes it: under --root
// a tool runs only where the tree has its program (the tree is the machine);
// this flag runs this machine's tools on it anyway (src/host/root_tools.h).
#pragma once

#include <CLI/CLI.hpp>

namespace hwaccel::cli {

inline CLI::Option* add_root_tools_flag(CLI::App& cmd, bool& flag, CLI::Option* root) {
  return cmd
      .add_flag("--root-tools", flag,
                "With --root: run this machine's tools (nvidia-smi, vulkaninfo, ...) even where "
                "the tree has none of them")
      ->needs(root);
}

}  // namespace hwaccel::cli
