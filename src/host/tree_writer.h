// Writing a planned tree to disk (`hwsim materialize`, `hwsim run`): folders,
// files with their modes, and symbolic links, under a root folder. The plan
// (what to write) is made in sim/materialize; this is only the disk side.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "src/vocabulary/result.h"

namespace hwaccel {

// A planned file's bytes: its own, or lent from storage its plan keeps alive
// (TreePlan::keep: a DGX's 14,000 files are not copied out of the snapshot they
// were planned from). Reads as a string_view; a change makes the bytes its own.
class PlannedBytes {
 public:
  PlannedBytes() = default;
  PlannedBytes(std::string own) : own_(std::move(own)) {}  // NOLINT: implicit, as a string
  PlannedBytes(const char* own) : own_(own) {}             // NOLINT
  // Bytes owned elsewhere, which must outlive every copy of this (the plan's `keep`).
  static PlannedBytes lent(std::string_view bytes) {
    PlannedBytes b;
    b.lent_ = bytes.data();
    b.size_ = bytes.size();
    return b;
  }

  std::string_view view() const { return lent_ ? std::string_view(lent_, size_) : own_; }
  operator std::string_view() const { return view(); }          // NOLINT
  operator std::string() const { return std::string(view()); }  // NOLINT
  const char* data() const { return view().data(); }
  std::size_t size() const { return view().size(); }
  bool empty() const { return size() == 0; }
  std::size_t find(std::string_view s, std::size_t at = 0) const { return view().find(s, at); }
  std::size_t find(char c, std::size_t at = 0) const { return view().find(c, at); }
  std::size_t rfind(std::string_view s, std::size_t at = std::string_view::npos) const {
    return view().rfind(s, at);
  }
  PlannedBytes& operator+=(std::string_view more) {
    if (lent_) {
      own_.assign(lent_, size_);
      lent_ = nullptr;
      size_ = 0;
    }
    own_ += more;
    return *this;
  }
  friend bool operator==(const PlannedBytes& a, const PlannedBytes& b) {
    return a.view() == b.view();
  }
  friend bool operator==(const PlannedBytes& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const PlannedBytes& a, const std::string& b) { return a.view() == b; }
  friend bool operator==(const PlannedBytes& a, const char* b) { return a.view() == b; }
  friend std::ostream& operator<<(std::ostream& out, const PlannedBytes& b) {
    return out << b.view();
  }

 private:
  std::string own_;
  const char* lent_ = nullptr;  // non-null: the bytes are [lent_, lent_ + size_)
  std::size_t size_ = 0;
};

struct PlannedEntry {
  enum class Kind { dir, file, link };
  Kind kind = Kind::file;
  std::string path;    // absolute inside the root ("/sys/class/drm")
  PlannedBytes bytes;  // file
  std::string target;  // link
  unsigned mode = 0644;
};

struct TreePlan {
  std::vector<PlannedEntry> entries;  // parents are created as needed
  std::vector<std::string> notes;     // what the tree cannot show (for the user)
  std::vector<std::string> warnings;  // what was left out for safety (always shown)
  std::string error;                  // non-empty: nothing may be written (the why)
  // What the entries' lent bytes point into (the filled snapshot), freed with the plan.
  std::vector<std::shared_ptr<const void>> keep = {};
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

// The same, the files and links written by `threads` threads (0: the machine's
// hardware threads, at most 4): first every folder in plan order (with its mode),
// then the files and links in stretches of the plan, split between folders, each
// written by a thread with its own chain of O_NOFOLLOW folder descriptors. The
// tree is the same as write_tree's; on failure, the message is the one for the
// failing entry of lowest index. All threads are gone (joined, and let go by the
// kernel) before it returns. A plan under kParallelFrom entries, or one whose
// order matters (a path planned twice, a folder's files in two stretches, a
// folder mode without owner rwx), is written by write_tree, in order.
inline constexpr std::size_t kParallelFrom = 2000;
// `after_folders`, when given, is called between the two (tests plant links with it).
std::string write_tree_parallel(const TreePlan& plan, const std::string& root, unsigned threads = 0,
                                const std::function<void()>& after_folders = nullptr);

// A new private folder under $TMPDIR (or /tmp), or under `in` when given: "" and
// `error` set on failure.
std::string make_private_temp_dir(std::string_view prefix, std::string& error,
                                  const std::string& in = "");

// The process's working folder (to make a relative DIR absolute); "" and `error` on failure.
std::string current_directory(std::string& error);

// Removes a folder and everything in it without following links; "" or what failed.
std::string remove_tree(const std::string& root);

}  // namespace hwaccel
