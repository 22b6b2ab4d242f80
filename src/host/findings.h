// Findings: what several probes work out from the same files (which vendor each
// function on the PCI bus belongs to: a detection asks it nine times), worked
// out once and kept by a host whose answers do not change while it lives (a
// replayed snapshot, one detection's MemoHost). Each finding is named by a tag, the
// address of a constant its maker owns, and holds one type. Safe to share
// between threads.
#pragma once

#include <map>
#include <memory>
#include <mutex>

namespace hwaccel {

class Findings {
 public:
  // The finding `tag` names, made by `make` the first time. The lock is not held
  // while making: two threads may make it at once, and the first one stored is
  // the one both keep.
  template <typename T, typename Make>
  const T& get(const void* tag, Make make) {
    {
      std::lock_guard lock(mutex_);
      if (auto it = found_.find(tag); it != found_.end())
        return *static_cast<const T*>(it->second.get());
    }
    std::shared_ptr<const void> made = std::make_shared<const T>(make());
    std::lock_guard lock(mutex_);
    auto it = found_.emplace(tag, std::move(made)).first;
    return *static_cast<const T*>(it->second.get());
  }

 private:
  std::mutex mutex_;
  std::map<const void*, std::shared_ptr<const void>> found_;
};

}  // namespace hwaccel
