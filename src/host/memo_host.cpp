#include "src/host/memo_host.h"

namespace hwaccel {

template <typename T, typename Ask>
Result<T> MemoHost::remembered(Memo<T>& memo, std::string_view key, Ask ask) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  Result<T> answer = ask();
  std::lock_guard lock(mutex_);
  return memo.try_emplace(std::string(key), std::move(answer)).first->second;
}

Result<FileText> MemoHost::read_text(std::string_view path) {
  const Result<FileText>* kept = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (auto it = reads_.find(path); it != reads_.end()) kept = &it->second;
  }
  if (!kept) {
    Result<FileText> answer = inner_.read_text(path);
    std::lock_guard lock(mutex_);
    kept = &reads_.try_emplace(std::string(path), std::move(answer)).first->second;
  }
  // A stored answer is never changed nor dropped: lending it is safe.
  if (!kept->ok()) return kept->error();
  return kept->value().borrow();
}

Result<std::string> MemoHost::read(std::string_view path) {
  auto text = read_text(path);
  if (!text) return text.error();
  return std::string(text->view());
}

Result<std::vector<std::string>> MemoHost::list(std::string_view dir) {
  return remembered(lists_, dir, [&] { return inner_.list(dir); });
}

Result<std::string> MemoHost::readlink(std::string_view path) {
  return remembered(links_, path, [&] { return inner_.readlink(path); });
}

Result<FileKind> MemoHost::stat(std::string_view path) {
  return remembered(stats_, path, [&] { return inner_.stat(path); });
}

}  // namespace hwaccel
