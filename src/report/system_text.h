// The system around the devices as text: one environment line for the default
// `hwaccel detect` report; network ports and storage tables for -v; the
// `hwaccel io` report.
#pragma once

#include <string>

#include "src/system/io_estimate.h"
#include "src/system/system_info.h"

namespace hwaccel {

// "environment: docker container, aws p5.48xlarge VM (Nitro)\n"
std::string environment_line(const SystemInfo& system);

// "cpus: 2 sockets, 16 cores, 32 threads; 2 NUMA nodes; memory 93.1 GiB\n", then
// "usable: 6 of 32 CPUs, 96.0 of 126.0 GiB memory\n" and one "  limited by ..."
// line per cgroup limit when this process may use less; "" when nothing is known.
std::string resources_lines(const SystemInfo& system);

// "network ports (...):" and "storage:" tables; "" when there is neither.
std::string system_details_text(const SystemInfo& system);

// "1.5 TB" style decimal sizes (storage is sold in powers of 1000).
std::string format_decimal_bytes(std::uint64_t bytes);

// "1h 02m", "3m 20s", "12.5 s"
std::string format_duration(double seconds);

std::string render_ingest_text(const IngestEstimate& estimate, const SystemInfo& system);

}  // namespace hwaccel
