// A program we did not write, as far as hwsim knows: it reads /proc/meminfo,
// lists /sys/class/drm and runs nvidia-smi's CSV query, by absolute paths and PATH, like a
// runtime or a monitoring agent would. `hwsim run` tests run it on simulated hosts.
#include <dirent.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

int main() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line, total = "unreadable";
  while (std::getline(meminfo, line))
    if (line.rfind("MemTotal:", 0) == 0) total = line.substr(line.find_first_not_of(' ', 9));
  std::cout << "MemTotal: " << total << "\n";

  std::vector<std::string> names;
  if (DIR* dir = ::opendir("/sys/class/drm")) {
    while (const dirent* e = ::readdir(dir))
      if (e->d_name[0] != '.') names.emplace_back(e->d_name);
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    std::cout << "drm:";
    for (const auto& n : names) std::cout << " " << n;
    std::cout << "\n";
  } else {
    std::cout << "drm: " << std::strerror(errno) << "\n";
  }

  std::string out;
  if (FILE* p = ::popen("nvidia-smi "
                        "--query-gpu=index,uuid,pci.bus_id,name,memory.total,memory.used,memory."
                        "free,compute_cap,driver_version --format=csv 2>&1",
                        "r")) {
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, p)) > 0) out.append(buffer, n);
    int status = ::pclose(p);
    std::cout << "nvidia-smi exit " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << ": "
              << out;
  }
  return 0;
}
