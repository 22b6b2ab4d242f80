// Writing a planned tree to disk (`hwsim materialize`, `hwsim run`): folders,
// files with their modes, and symbolic links, under a root folder. The plan
// (what to write) is made in sim/materialize; this is only the disk side.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "src/vocabulary/result.h"

namespace hwaccel {

struct PlannedEntry {
  enum class Kind { dir, file, link };
  Kind kind = Kind::file;
  std::string path;    // absolute inside the root ("/sys/class/drm")
  std::string bytes;   // file
  std::string target;  // link
  unsigned mode = 0644;
};

struct TreePlan {
  std::vector<PlannedEntry> entries;  // parents are created as needed
  std::vector<std::string> notes;     // what the tree cannot show (for the user)
  std::vector<std::string> warnings;  // what was left out for safety (always shown)
  std::string error;                  // non-empty: nothing may be written (the why)
};

// Writes `plan` under `root`, which must be missing or an empty folder of ours
// (not a link, not another user's). Returns an empty string on success, else what
// failed (the path and the errno text); a plan with an error writes nothing.
// Every entry is made relative to a descriptor of the root, component by
// component with O_NOFOLLOW (src/host/tree_fd.h): a link in the plan, or one
// planted in the folder while we write, is never followed out of it.
std::string write_tree(const TreePlan& plan, const std::string& root);
// The same, calling `before_each(entry path)` first for every entry (tests plant
// links mid-write with it).
std::string write_tree(const TreePlan& plan, const std::string& root,
                       const std::function<void(const std::string&)>& before_each);

// A new private folder under $TMPDIR (or /tmp), or under `in` when given: "" and
// `error` set on failure.
std::string make_private_temp_dir(std::string_view prefix, std::string& error,
                                  const std::string& in = "");

// The process's working folder (to make a relative DIR absolute); "" and `error` on failure.
std::string current_directory(std::string& error);

// Removes a folder and everything in it without following links; "" or what failed.
std::string remove_tree(const std::string& root);

}  // namespace hwaccel
