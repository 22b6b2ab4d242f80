// read_tree_files never leaves DIR: a symbolic link in the tree, to a folder or
// a file, inside the tree or out of it, is a note and is not followed.
#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "src/kernels/tree.h"

namespace hwaccel::kernels {
namespace {

TEST(KernelTreeLinks, LinksAreNotesAndNotFollowed) {
  Snapshot s;
  s.files["/t/DEVICES.toml"] = FileEntry::of_content("format = 1\n");
  s.files["/t/sm90/a.cu"] = FileEntry::of_content("// a kernel\n");
  s.files["/t/home"] = FileEntry::of_link("/home/alice");         // a folder out of the tree
  s.files["/t/sm90/up"] = FileEntry::of_link("../..");            // up and out, relative
  s.files["/t/sm90/b.cu"] = FileEntry::of_link("a.cu");           // a file inside the tree
  s.files["/t/sm90/c.toml"] = FileEntry::of_link("/etc/c.toml");  // a file out of it
  s.files["/home/alice/credentials.toml"] = FileEntry::of_content("token = \"secret\"\n");
  s.files["/etc/c.toml"] = FileEntry::of_content("x = 1\n");
  SnapshotHost host(s);
  auto r = read_tree_files(host, "/t/");
  ASSERT_TRUE(r.error.empty()) << r.error;
  std::vector<std::string> names;
  for (const auto& [name, text] : r.files) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"DEVICES.toml", "sm90/a.cu"}));
  EXPECT_EQ(r.notes, (std::vector<std::string>{
                         "/t/home: a symbolic link, not followed (a kernel tree is read only "
                         "inside its own folder)",
                         "/t/sm90/b.cu: a symbolic link, not followed (a kernel tree is read "
                         "only inside its own folder)",
                         "/t/sm90/c.toml: a symbolic link, not followed (a kernel tree is read "
                         "only inside its own folder)",
                         "/t/sm90/up: a symbolic link, not followed (a kernel tree is read only "
                         "inside its own folder)",
                     }));
}

}  // namespace
}  // namespace hwaccel::kernels
