#include "cli/common/detection_cache_io.h"

#include <cerrno>
#include <iostream>

#include "cli/common/exit_codes.h"
#include "cli/common/output_file.h"
#include "src/host/live_host.h"
#include "src/host/private_file.h"
#include "src/registry/detection_cache.h"

namespace hwaccel::cli {

std::string cache_path(Host& host) {
  auto xdg = host.env("XDG_CACHE_HOME");
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored.
  if (xdg && !xdg->empty() && (*xdg)[0] == '/') return *xdg + "/hwaccel/detect.json";
  auto home = host.env("HOME");
  if (home && !home->empty()) return *home + "/.cache/hwaccel/detect.json";
  return "";
}

CachedDetection detect_with_cache(Host& host, const DetectOptions& options, const std::string& ttl,
                                  const std::string& root, bool root_tools, bool quiet) {
  CachedDetection out;
  if (ttl.empty()) {
    out.detection = detect(host, options);
    return out;
  }
  auto ttl_s = parse_ttl(ttl);
  if (!ttl_s) {
    std::cerr << "error: --cache \"" << ttl
              << "\": expected a duration such as 300, 90s, 15m, 2h or 1d\n";
    out.exit = kExitUsage;
    return out;
  }
  auto warn = [&](const std::string& message) {
    if (!quiet) std::cerr << "warning: " << message << "\n";
  };
  // The process's own environment decides where the cache is, not a --root tree's.
  LiveHost self;
  const std::string path = cache_path(self);
  std::string key = "host=" + host.facts().hostname + ";root=" + root +
                    (root_tools ? ";root-tools" : "") + ";only=";
  for (const auto& b : options.only) key += b + ",";
  // The runtimes' numbering (an entry's ordinal, what is hidden) follows these.
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "ROCR_VISIBLE_DEVICES",
                           "HIP_VISIBLE_DEVICES"}) {
    auto value = host.env(name);
    key += std::string(";") + name + (value ? "=" + *value : "");
  }

  if (path.empty()) {
    warn("--cache: neither XDG_CACHE_HOME nor HOME is set; detecting without a cache");
    out.detection = detect(host, options);
    return out;
  }
  // Trusted only when nobody but this user could have written it: a regular
  // file of ours, 0600, in a real 0700 folder of ours (see private_file.h).
  if (auto text = read_private_file(path, 64u << 20)) {
    CacheVerdict v = judge_cache(*text, key, *ttl_s, host.now());
    if (v.detection) {
      out.detection = std::move(*v.detection);
      mark_cached(out.detection, v.age_s, path);
      return out;
    }
    warn("--cache: ignoring " + path + " (" + v.why_not + "); detecting and rewriting it");
  } else if (text.error().code == EPERM) {
    warn("--cache: ignoring " + path + ", not trusted: " + text.error().message +
         "; detecting live");
  } else if (text.error().code != ENOENT) {
    warn("--cache: cannot read " + path + ": " + text.error().message + "; detecting anew");
  }

  out.detection = detect(host, options);
  const std::string dir = path.substr(0, path.rfind('/'));
  std::string why = make_directories(dir, 0700);
  // Never written into a folder that is not ours alone: the next run could
  // not trust it anyway, and a linked folder would take the write elsewhere.
  if (why.empty())
    if (auto not_private = why_folder_is_not_private(dir); !not_private.empty())
      why = dir + ": " + not_private + " (nothing was written)";
  if (why.empty())
    why = write_file_atomically(path, encode_cache(out.detection, key, host.now()),
                                ExistingFile::replace, 0600);
  if (!why.empty()) warn("--cache: cannot write the cache: " + why);
  return out;
}

}  // namespace hwaccel::cli
