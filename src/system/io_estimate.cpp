#include "src/system/io_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hwaccel {

namespace {

std::string gb(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// The fastest drives of a generation at x4 (see the header for the models).
double nvme_cap(int generation) {
  if (generation <= 3) return 3.5;
  if (generation == 4) return 7.0;
  return 14.0;
}

}  // namespace

std::optional<std::uint64_t> parse_data_size(std::string_view text) {
  if (text.empty() || text.size() > 32) return std::nullopt;
  std::size_t i = 0;
  double whole = 0;
  bool digits = false;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    whole = whole * 10 + (text[i] - '0');
    digits = true;
    ++i;
  }
  double frac = 0, scale = 1;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      frac = frac * 10 + (text[i] - '0');
      scale *= 10;
      digits = true;
      ++i;
    }
  }
  if (!digits) return std::nullopt;
  std::string_view unit = text.substr(i);
  if (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  double multiplier = 1;
  if (!unit.empty()) {
    const char* letters = "KMGTP";
    const char* at = nullptr;
    char u = unit.front();
    if (u >= 'a' && u <= 'z') u = char(u - 'a' + 'A');
    for (const char* p = letters; *p; ++p)
      if (*p == u) at = p;
    if (!at) {
      if (unit != "B") return std::nullopt;
    } else {
      unit.remove_prefix(1);
      bool binary = false;
      if (!unit.empty() && unit.front() == 'i') {
        binary = true;
        unit.remove_prefix(1);
      }
      if (!unit.empty() && unit != "B" && unit != "b") return std::nullopt;
      multiplier = std::pow(binary ? 1024.0 : 1000.0, double(at - letters + 1));
    }
  }
  double bytes = (whole + frac / scale) * multiplier;
  if (!(bytes >= 1) || bytes > 1.8e19) return std::nullopt;
  return std::uint64_t(std::llround(bytes));
}

std::optional<DeviceRate> assumed_rate(const BlockDevice& d) {
  DeviceRate r;
  r.device = d.name;
  r.kind = d.kind;
  r.size_bytes = d.size_bytes;
  if (d.kind == "nvme") {
    if (d.pcie && d.pcie->current.gbytes_per_s && d.pcie->current.generation) {
      const auto& c = d.pcie->current;
      double link = *c.gbytes_per_s;
      double cap = nvme_cap(*c.generation);
      r.gbytes_per_s = std::min(0.9 * link, cap);
      r.assumption = "90% of its PCIe Gen" + std::to_string(*c.generation) + " x" +
                     std::to_string(c.width.value_or(0)) + " link (" + gb(link) +
                     " GB/s), at most " + gb(cap) + " (the generation's fastest drives)";
    } else {
      r.gbytes_per_s = 3.5;
      r.assumption = "NVMe, PCIe link not known: a Gen3 x4 drive, 3.50 GB/s";
    }
  } else if (d.kind == "ssd") {
    r.gbytes_per_s = 0.55;
    r.assumption = "SATA/SAS SSD: 0.55 GB/s (SATA III ceiling 0.6)";
  } else if (d.kind == "hdd") {
    r.gbytes_per_s = 0.2;
    r.assumption = "7200 rpm disk: 0.20 GB/s sequential";
  } else if (d.kind == "paravirtual" || d.kind == "network") {
    r.gbytes_per_s = 0.2;
    r.assumption = "cloud/network volume: 0.20 GB/s (provisioned rate not visible)";
  } else {
    return std::nullopt;
  }
  r.gbytes_per_s = std::round(r.gbytes_per_s * 100.0) / 100.0;
  return r;
}

IngestEstimate estimate_ingest(const std::vector<BlockDevice>& storage,
                               std::uint64_t dataset_bytes) {
  IngestEstimate e;
  e.dataset_bytes = dataset_bytes;
  for (const auto& d : storage) {
    auto r = assumed_rate(d);
    if (!r) continue;
    r->seconds = double(dataset_bytes) / (r->gbytes_per_s * 1e9);
    r->fits = !d.size_bytes || *d.size_bytes >= dataset_bytes;
    e.devices.push_back(*r);
  }
  std::stable_sort(e.devices.begin(), e.devices.end(),
                   [](const DeviceRate& a, const DeviceRate& b) {
                     if (a.gbytes_per_s != b.gbytes_per_s) return a.gbytes_per_s > b.gbytes_per_s;
                     return natural_less(a.device, b.device);
                   });
  if (storage.empty())
    e.notes.push_back("no block devices seen (/sys/block empty or not readable)");
  else if (e.devices.empty())
    e.notes.push_back("only virtual or removable block devices: nothing to estimate from");
  for (std::size_t i = 0; i < e.devices.size(); ++i)
    if (e.devices[i].fits) {
      e.best = i;
      break;
    }
  if (!e.devices.empty() && !e.best)
    e.notes.push_back("no single device is as large as the data set");
  // All devices of the fastest kind together (RAID 0 or a loader reading them in parallel).
  if (!e.devices.empty()) {
    const std::string& kind = e.devices.front().kind;
    double sum = 0;
    std::uint64_t capacity = 0;
    std::size_t n = 0;
    for (const auto& d : e.devices)
      if (d.kind == kind) {
        sum += d.gbytes_per_s;
        capacity += d.size_bytes.value_or(0);
        ++n;
      }
    if (n > 1) {
      e.striped_count = n;
      e.striped_gbytes_per_s = std::round(sum * 100.0) / 100.0;
      e.striped_seconds = double(dataset_bytes) / (e.striped_gbytes_per_s * 1e9);
      if (capacity < dataset_bytes)
        e.notes.push_back("the " + std::to_string(n) + " " + kind +
                          " devices together are smaller than the data set");
    }
  }
  return e;
}

}  // namespace hwaccel
