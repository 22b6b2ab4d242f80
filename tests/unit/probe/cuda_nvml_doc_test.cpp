#include "src/probe/cuda_nvml_doc.h"

#include <gtest/gtest.h>

#include <string>

namespace hwaccel {
namespace {

// What hwaccel-nvml printed for the H200 of fixtures/hosts/h200-firecracker.yaml,
// its figures as nvidia-smi showed them there (143771 MiB, 143156 MiB free).
const std::string kH200 =
    R"({"hwaccel_nvml": 1, "status": "ok", "driver_version": "580.159.04",)"
    R"( "nvml_version": "13.580.159.04", "cuda_driver_version": "13.0", "device_count": 1,)"
    R"( "devices": [{"index": 0, "name": "NVIDIA H200",)"
    R"( "uuid": "GPU-00000000-0000-4000-8000-000000000001", "pci_bus_id": "00000000:00:06.0",)"
    R"( "pci_device_id": 590418142, "memory_total": 150755000320, "memory_used": 0,)"
    R"( "memory_free": 150110126080, "compute_capability": "9.0", "mig_mode": 0,)"
    R"( "mig_mode_pending": 0, "nvlinks": [], "addressing_mode": "None",)"
    R"( "persistence_mode": true, "compute_mode": 0,)"
    R"( "errors": [{"call": "nvmlDeviceGetC2cModeInfoV", "rc": 3, "error": "Not Supported"}]}],)"
    R"( "topology": [], "errors": []})";

TEST(CudaNvmlDoc, ReadsTheH200Document) {
  auto doc = parse_nvml_document(kH200);
  ASSERT_TRUE(doc.parsed) << (doc.problems.empty() ? "" : doc.problems.front());
  EXPECT_TRUE(doc.problems.empty());
  EXPECT_EQ(doc.status, "ok");
  EXPECT_EQ(doc.driver_version, "580.159.04");
  EXPECT_EQ(doc.cuda_driver_version, "13.0");
  ASSERT_EQ(doc.devices.size(), 1u);
  const auto& d = doc.devices[0];
  EXPECT_EQ(d.name, "NVIDIA H200");
  EXPECT_EQ(d.pci_bus_id, "0000:00:06.0");  // normalised as sysfs writes it
  EXPECT_EQ(d.pci_device_id, 590418142u);   // 0x233010de
  EXPECT_EQ(d.memory.total, 150755000320u);
  EXPECT_EQ(d.memory.free, 150110126080u);
  EXPECT_EQ(d.compute_capability, "9.0");
  EXPECT_EQ(d.addressing_mode, "None");
  EXPECT_EQ(d.persistence_mode, true);
  ASSERT_EQ(d.errors.size(), 1u);
  EXPECT_EQ(d.errors[0], "nvmlDeviceGetC2cModeInfoV: Not Supported (3)");
  EXPECT_FALSE(d.memory_not_supported);
}

TEST(CudaNvmlDoc, MigDevicesLinksAndTopology) {
  auto doc = parse_nvml_document(
      R"({"hwaccel_nvml": 1, "status": "ok", "devices": [)"
      R"({"index": 0, "name": "NVIDIA H100 80GB HBM3", "pci_bus_id": "00000000:1B:00.0", "mig_mode": 1,)"
      R"( "mig_devices": [{"index": 0, "name": "NVIDIA H100 80GB HBM3 MIG 3g.40gb", "uuid": "MIG-a",)"
      R"( "gpu_instance_id": 2, "compute_instance_id": 0, "memory_total": 42413211648,)"
      R"( "memory_free": 42386997248}],)"
      R"( "nvlinks": [{"link": 0, "active": true, "remote_pci_bus_id": "00000000:05:00.0"},)"
      R"( {"link": 1, "active": false}]},)"
      R"({"index": 1, "name": "NVIDIA H100 80GB HBM3", "pci_bus_id": "00000000:43:00.0"}],)"
      R"( "topology": [{"a": 0, "b": 1, "level": 50}, {"a": 1, "b": 1, "level": 0}]})");
  ASSERT_TRUE(doc.parsed);
  ASSERT_EQ(doc.devices.size(), 2u);
  EXPECT_EQ(doc.devices[0].pci_bus_id, "0000:1b:00.0");
  ASSERT_EQ(doc.devices[0].mig_devices.size(), 1u);
  EXPECT_EQ(doc.devices[0].mig_devices[0].gpu_instance, 2);
  EXPECT_EQ(doc.devices[0].mig_devices[0].memory.total, 42413211648u);
  ASSERT_EQ(doc.devices[0].nvlinks.size(), 2u);
  EXPECT_EQ(doc.devices[0].nvlinks[0].remote_pci_bus_id, "0000:05:00.0");
  EXPECT_FALSE(doc.devices[0].nvlinks[1].active);
  ASSERT_EQ(doc.topology.size(), 1u);  // a GPU paired with itself is dropped
  EXPECT_EQ(doc.topology[0].level, 50);
}

TEST(CudaNvmlDoc, MemoryNotSupportedIsTheSharedMemoryGpu) {
  auto doc = parse_nvml_document(
      R"({"hwaccel_nvml": 1, "status": "ok", "devices": [{"index": 0, "name": "NVIDIA GB10",)"
      R"( "errors": [{"call": "nvmlDeviceGetMemoryInfo", "rc": 3, "error": "Not Supported"}]}]})");
  ASSERT_EQ(doc.devices.size(), 1u);
  EXPECT_TRUE(doc.devices[0].memory_not_supported);
  EXPECT_FALSE(doc.devices[0].memory.total);
}

TEST(CudaNvmlDoc, TruncatedDocumentIsNotADocument) {
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, kH200.size() / 2, kH200.size() - 1}) {
    auto doc = parse_nvml_document(std::string_view(kH200).substr(0, cut));
    EXPECT_FALSE(doc.parsed) << cut;
    ASSERT_FALSE(doc.problems.empty()) << cut;
    EXPECT_NE(doc.problems.front().find("not JSON"), std::string::npos) << doc.problems.front();
  }
}

TEST(CudaNvmlDoc, OtherVersionsAndShapesAreRefused) {
  EXPECT_FALSE(parse_nvml_document(R"({"hwaccel_nvml": 2, "devices": []})").parsed);
  EXPECT_FALSE(parse_nvml_document(R"({"hwaccel_nvml": "1"})").parsed);
  EXPECT_FALSE(parse_nvml_document(R"({"devices": []})").parsed);
  EXPECT_FALSE(parse_nvml_document(R"([{"hwaccel_nvml": 1}])").parsed);
  auto doc = parse_nvml_document(R"({"hwaccel_nvml": 2})");
  ASSERT_FALSE(doc.problems.empty());
  EXPECT_EQ(doc.problems.front(), "document version 2, expected 1");
}

TEST(CudaNvmlDoc, LyingMembersAreUnknownAndSaidSo) {
  auto doc = parse_nvml_document(
      R"({"hwaccel_nvml": 1, "status": "ok", "devices": [{"index": 0, "name": 7,)"
      R"( "uuid": "GPU-x", "pci_bus_id": "the bus", "memory_total": 10, "memory_free": 20,)"
      R"( "compute_capability": "nine", "mig_mode": 5, "addressing_mode": "magic",)"
      R"( "memory_used": -1, "nvlinks": {"0": true}}, "a string"]})");
  ASSERT_TRUE(doc.parsed);
  ASSERT_EQ(doc.devices.size(), 1u);
  const auto& d = doc.devices[0];
  EXPECT_EQ(d.name, "");
  EXPECT_EQ(d.uuid, "GPU-x");
  EXPECT_EQ(d.pci_bus_id, "");
  EXPECT_FALSE(d.memory.total);  // free above total: neither is believed
  EXPECT_FALSE(d.memory.free);
  EXPECT_EQ(d.compute_capability, "");
  EXPECT_FALSE(d.mig_mode);
  EXPECT_EQ(d.addressing_mode, "");
  std::string all;
  for (const auto& p : doc.problems) all += p + "\n";
  for (const char* expected :
       {"devices[0].name: not a string", "devices[0].pci_bus_id: not a PCI address",
        "memory_free is more than memory_total", "devices[0].compute_capability: not major.minor",
        "devices[0].mig_mode: not a count up to 1", "devices[0].addressing_mode: not ATS",
        "devices[0].memory_used: not a count", ".nvlinks: not an array",
        "devices[1]: not an object"})
    EXPECT_NE(all.find(expected), std::string::npos) << expected << " in\n" << all;
}

TEST(CudaNvmlDoc, BoundedCountsDepthAndStrings) {
  std::string many = R"({"hwaccel_nvml": 1, "status": "ok", "devices": [)";
  for (int i = 0; i < 100; ++i) many += std::string(i ? "," : "") + R"({"name": "G"})";
  many += "]}";
  auto doc = parse_nvml_document(many);
  EXPECT_EQ(doc.devices.size(), kMaxNvmlDevices);
  ASSERT_FALSE(doc.problems.empty());
  EXPECT_EQ(doc.problems.front(), ".devices: 100 elements; the first 64 read");

  std::string deep =
      R"({"hwaccel_nvml": 1, "x": )" + std::string(200, '[') + std::string(200, ']') + "}";
  doc = parse_nvml_document(deep);
  EXPECT_FALSE(doc.parsed);
  EXPECT_NE(doc.problems.front().find("nested deeper than"), std::string::npos);

  doc = parse_nvml_document(R"({"hwaccel_nvml": 1, "devices": [{"name": ")" +
                            std::string(1000, 'A') + R"("}]})");
  ASSERT_EQ(doc.devices.size(), 1u);
  EXPECT_EQ(doc.devices[0].name, "");
  EXPECT_NE(doc.problems.front().find("longer than 256 bytes"), std::string::npos);

  doc = parse_nvml_document(std::string(kMaxNvmlDocumentBytes + 1, ' '));
  EXPECT_FALSE(doc.parsed);
  EXPECT_NE(doc.problems.front().find("larger than"), std::string::npos);
}

TEST(CudaNvmlDoc, ControlBytesInStringsAreNotPassedOn) {
  auto doc = parse_nvml_document(
      R"({"hwaccel_nvml": 1, "devices": [{"name": "NVIDIA\u001b[31m H200\nfake line"}]})");
  ASSERT_EQ(doc.devices.size(), 1u);
  EXPECT_EQ(doc.devices[0].name.find('\x1b'), std::string::npos);
  EXPECT_EQ(doc.devices[0].name.find('\n'), std::string::npos);
}

// The monitoring getters' cells and the processes (tools/hwaccel_nvml/nvml_monitor.h),
// as hwaccel-nvml printed them on the simulated h200-load.
TEST(CudaNvmlDoc, MonitoringCellsAndProcessesAreRead) {
  auto doc = parse_nvml_document(
      R"({"hwaccel_nvml": 1, "status": "ok", "devices": [{"index": 0,)"
      R"( "pci_bus_id": "00000000:83:00.0", "monitor": {"temperature.gpu": "52",)"
      R"( "power.draw.instant": "626.26", "fan.speed": "[N/A]", "pstate": "P0"},)"
      R"( "processes": [{"pid": 10309, "used_memory": 29605494784, "name": "./gpu_burn"},)"
      R"( {"pid": 10291}]}]})");
  ASSERT_TRUE(doc.parsed);
  EXPECT_TRUE(doc.problems.empty()) << doc.problems.front();
  const auto& d = doc.devices.at(0);
  ASSERT_EQ(d.monitor.size(), 4u);
  EXPECT_EQ(d.monitor[0], (std::pair<std::string, std::string>{"fan.speed", "[N/A]"}));
  EXPECT_EQ(d.monitor[3], (std::pair<std::string, std::string>{"temperature.gpu", "52"}));
  ASSERT_EQ(d.processes.size(), 2u);
  EXPECT_EQ(d.processes[0].pid, 10309u);
  EXPECT_EQ(d.processes[0].used_memory, 29605494784u);
  EXPECT_EQ(d.processes[0].name, "./gpu_burn");
  EXPECT_FALSE(d.processes[1].used_memory);
}

TEST(CudaNvmlDoc, MonitoringCellsAreBoundedAndOnlyFieldNames) {
  std::string many = R"({"hwaccel_nvml": 1, "status": "ok", "devices": [{"monitor": {)";
  for (int i = 0; i < 100; ++i)
    many += (i ? ", " : "") + std::string("\"f") + std::to_string(i) + "\": \"1\"";
  many += R"(}, "processes": [{"pid": -1}, {"pid": "x"}, 7]}]})";
  auto doc = parse_nvml_document(many);
  ASSERT_TRUE(doc.parsed);
  EXPECT_EQ(doc.devices.at(0).monitor.size(), kMaxNvmlMonitorCells);
  EXPECT_TRUE(doc.devices.at(0).processes.empty());
  auto odd = parse_nvml_document(
      R"({"hwaccel_nvml": 1, "status": "ok", "devices": [{"monitor": {"Temp; rm -rf": "1",)"
      R"( "temperature.gpu": 52, "power.draw": "1234567890123456789012345678901234567890123456789012345678901234567890"}}]})");
  ASSERT_TRUE(odd.parsed);
  EXPECT_TRUE(odd.devices.at(0).monitor.empty());
  EXPECT_EQ(odd.problems.size(), 3u);
}

}  // namespace
}  // namespace hwaccel
