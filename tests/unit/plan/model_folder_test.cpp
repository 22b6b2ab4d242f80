#include "src/plan/model_folder.h"

#include <gtest/gtest.h>

namespace hwaccel::plan {
namespace {

TEST(ModelFolder, AFolderIsItsOwnTree) {
  EXPECT_EQ(model_folder_tree("/data/llama"), "/data/llama");
  EXPECT_EQ(model_folder_tree("/data/snapshots/abc"), "/data/snapshots/abc");
  EXPECT_EQ(model_folder_tree("/"), "/");
}

// Hugging Face's cache: snapshots/REV/* link to ../../blobs/HASH.
TEST(ModelFolder, AHuggingFaceRevisionReadsInItsRepositoryFolder) {
  EXPECT_EQ(model_folder_tree("/home/u/.cache/huggingface/hub/models--meta--llama/snapshots/0a1b"),
            "/home/u/.cache/huggingface/hub/models--meta--llama");
  // Not a revision folder of one: the folder itself.
  EXPECT_EQ(model_folder_tree("/hub/models--meta--llama/snapshots"),
            "/hub/models--meta--llama/snapshots");
  EXPECT_EQ(model_folder_tree("/hub/models--meta--llama/blobs/x"),
            "/hub/models--meta--llama/blobs/x");
  EXPECT_EQ(model_folder_tree("/hub/models--/snapshots/r"), "/hub/models--/snapshots/r");
  EXPECT_EQ(model_folder_tree("/hub/datasets--a--b/snapshots/r"),
            "/hub/datasets--a--b/snapshots/r");
}

}  // namespace
}  // namespace hwaccel::plan
