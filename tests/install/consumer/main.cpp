// Uses the installed C++ API lazily: asking for the cuda family probes cuda
// alone. Usage: cpp_consumer SNAPSHOT
#include <hwaccel/hwaccel.hpp>
#include <iostream>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  auto registry = hwaccel::api::RegistryBuilder().snapshot(argv[1]).build();
  auto gpus = registry.family("cuda");
  if (registry.probed_families() != std::vector<std::string>{"cuda"}) {
    std::cerr << "probed more than cuda\n";
    return 1;
  }
  auto best = registry.best();
  std::cout << gpus.size() << " cuda devices, best " << (best ? best->label : "none") << ", "
            << registry.accelerator_memory_bytes() / (1ull << 30) << " GiB accelerator memory\n";
  return gpus.empty() ? 1 : 0;
}
