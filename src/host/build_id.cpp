#include "src/host/build_id.h"

#include <elf.h>
#include <link.h>

#include <cstring>

namespace hwaccel {
namespace {

int note_build_id(dl_phdr_info* info, size_t, void* out) {
  auto* id = static_cast<std::string*>(out);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    const char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const auto* n = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const char* name = p + sizeof(ElfW(Nhdr));
      const char* desc = name + ((n->n_namesz + 3) & ~3u);
      if (desc + n->n_descsz > end) break;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        static const char digits[] = "0123456789abcdef";
        for (unsigned k = 0; k < n->n_descsz; ++k) {
          auto b = static_cast<unsigned char>(desc[k]);
          *id += digits[b >> 4];
          *id += digits[b & 15];
        }
        return 1;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return 1;  // only the program itself (the first object) is looked at
}

}  // namespace

std::string program_build_id() {
  static const std::string id = [] {
    std::string out;
    ::dl_iterate_phdr(note_build_id, &out);
    return out;
  }();
  return id;
}

}  // namespace hwaccel
