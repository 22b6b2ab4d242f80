// The folder a model folder's reads stay in (`plan --model DIR`): its config.json,
// index and shards may be links, but only to files inside that folder, so a
// folder handed over cannot make the plan read (and echo in an error) a file of
// this machine elsewhere.
//
// The one layout that links further: a revision of a Hugging Face cache,
// .../models--ORG--NAME/snapshots/REV, whose files link to ../../blobs/HASH. When
// DIR is such a revision, the folder is the repository's, models--ORG--NAME (its
// blobs, refs and other revisions), and nothing above it.
#pragma once

#include <string>
#include <string_view>

namespace hwaccel::plan {

// `dir`: the model folder's canonical path (no link, no "..", no trailing "/").
std::string model_folder_tree(std::string_view dir);

}  // namespace hwaccel::plan
