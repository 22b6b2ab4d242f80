#include "src/plan/model_folder.h"

namespace hwaccel::plan {

std::string model_folder_tree(std::string_view dir) {
  // .../models--ORG--NAME/snapshots/REV -> .../models--ORG--NAME
  const auto rev_slash = dir.rfind('/');
  if (rev_slash == std::string_view::npos || rev_slash + 1 == dir.size()) return std::string(dir);
  const std::string_view parent = dir.substr(0, rev_slash);
  const auto snapshots_slash = parent.rfind('/');
  if (snapshots_slash == std::string_view::npos ||
      parent.substr(snapshots_slash + 1) != "snapshots")
    return std::string(dir);
  const std::string_view repo = parent.substr(0, snapshots_slash);
  const auto repo_slash = repo.rfind('/');
  if (repo_slash == std::string_view::npos) return std::string(dir);
  const std::string_view name = repo.substr(repo_slash + 1);
  constexpr std::string_view kPrefix = "models--";
  if (name.size() <= kPrefix.size() || name.substr(0, kPrefix.size()) != kPrefix)
    return std::string(dir);
  return std::string(repo);
}

}  // namespace hwaccel::plan
