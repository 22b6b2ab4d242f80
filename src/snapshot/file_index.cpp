#include "src/snapshot/file_index.h"

namespace hwaccel {

FileIndex::FileIndex(const Files& files) {
  std::size_t size = 16;
  while (size < 2 * files.size()) size *= 2;
  slots_.resize(size);
  const std::size_t mask = size - 1;
  for (const auto& file : files) {
    const std::uint64_t hash = extend(empty(), file.first);
    std::size_t i = hash & mask;
    std::size_t displacement = 0;
    while (slots_[i].file) {  // the map's keys are distinct
      if (++displacement > kMaxDisplacement) {
        slots_ = {};
        longest_ = 0;
        gave_up_ = true;
        return;
      }
      i = (i + 1) & mask;
    }
    slots_[i] = Slot{hash, &file};
    if (displacement > longest_) longest_ = displacement;
  }
}

const FileEntry* FileIndex::find(std::string_view path, std::uint64_t hash) const {
  if (slots_.empty()) return nullptr;
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = hash & mask;
  for (std::size_t probes = 0; probes <= longest_ && slots_[i].file; ++probes, i = (i + 1) & mask) {
    if (slots_[i].hash == hash && slots_[i].file->first == path) return &slots_[i].file->second;
  }
  return nullptr;
}

}  // namespace hwaccel
