// nvidia-smi --query-gpu answered from the host model: every --format variant, -i,
// fields the model does not know ([N/A]) and the tool's refusal of an unknown field.
#include <gtest/gtest.h>

#include "sim/emulate/nvidia_smi_fields.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_errors.h"
#include "tests/unit/sim/emulate/nvsmi_host.h"

namespace hwaccel::sim {
namespace {

using testing_nvsmi::Host;
using testing_nvsmi::lines;

TEST(NvidiaSmiQuery, EveryFormatVariantOnTheDgx) {
  Host h("dgx-h100");
  const std::string q = "--query-gpu=index,name,memory.total,uuid,pci.bus_id";
  auto csv = h.ask({q, "--format=csv"});
  EXPECT_EQ(csv.exit_code, 0);
  auto rows = lines(csv.out);
  ASSERT_EQ(rows.size(), 9u);  // header + 8 GPUs
  EXPECT_EQ(rows[0], "index, name, memory.total [MiB], uuid, pci.bus_id");
  EXPECT_EQ(rows[1],
            "0, NVIDIA H100 80GB HBM3, 81559 MiB, GPU-168fbe87-2a83-b2f1-9874-64cbffc91be1, "
            "00000000:1B:00.0");
  EXPECT_EQ(lines(h.ask({q, "--format=csv,noheader"}).out)[0], rows[1]);
  EXPECT_EQ(lines(h.ask({q, "--format=csv,nounits"}).out)[1],
            "0, NVIDIA H100 80GB HBM3, 81559, GPU-168fbe87-2a83-b2f1-9874-64cbffc91be1, "
            "00000000:1B:00.0");
  auto bare = lines(h.ask({q, "--format=csv,noheader,nounits"}).out);
  EXPECT_EQ(bare.size(), 8u);
  EXPECT_EQ(bare[7].substr(0, 3), "7, ");
}

TEST(NvidiaSmiQuery, OutputReadsBackThroughTheProbesParserAsTheDetectionSaysIt) {
  Host h("dgx-h100");
  auto a =
      h.ask({"--query-gpu=index,uuid,pci.bus_id,name,memory.total,memory.free", "--format=csv"});
  auto parsed = parse_nvidia_smi_gpu_query(a.out);
  ASSERT_EQ(parsed.gpus.size(), 8u);
  for (const auto& e : h.detection.entries) {
    if (e.backend != "cuda" || e.partition) continue;
    const auto& g = parsed.gpus[static_cast<std::size_t>(e.index)];
    EXPECT_EQ(g.uuid, e.uuid);
    EXPECT_EQ(g.pci_bus_id, e.pci_bus_id);
    EXPECT_EQ(g.memory_total_bytes, e.memory.total_bytes);
    EXPECT_EQ(g.memory_free_bytes, e.memory.free_bytes);
  }
}

TEST(NvidiaSmiQuery, IdsPickGpusByIndexUuidOrBusId) {
  Host h("dgx-h100");
  auto two = lines(h.ask({"--query-gpu=index", "--format=csv,noheader", "-i", "3,1"}).out);
  EXPECT_EQ(two, (std::vector<std::string>{"3", "1"}));
  EXPECT_EQ(h.ask({"--query-gpu=index", "--format=csv,noheader",
                   "--id=GPU-e42bc4bd-3aea-b47e-0f5e-41299882ef21"})
                .out,
            "7\n");
  EXPECT_EQ(h.ask({"--query-gpu=index", "--format=csv,noheader", "-i", "00000000:9d:00.0"}).out,
            "4\n");
  auto none = h.ask({"--query-gpu=index", "--format=csv", "-i", "8"});
  EXPECT_EQ(none.exit_code, 6);
  EXPECT_EQ(none.out, "No devices were found\n");
}

TEST(NvidiaSmiQuery, AnUnknownFieldIsRefusedInTheToolsWords) {
  Host h("dgx-h100");
  auto a = h.ask({"--query-gpu=name,gpu_colour", "--format=csv"});
  EXPECT_EQ(a.exit_code, 2);
  // What the CUDA probe reads from the real tool (src/probe/nvidia_smi_errors.h).
  EXPECT_EQ(rejected_query_fields(a.out), std::vector<std::string>{"gpu_colour"});
  EXPECT_EQ(lines(a.out)[0], "Field \"gpu_colour\" is not a valid field to query.");
}

TEST(NvidiaSmiQuery, FieldsTheModelDoesNotKnowPrintNotAvailable) {
  Host h("dgx-h100");
  auto a = h.ask({"--query-gpu=gpu_name,temperature.gpu,power.draw", "--format=csv", "-i", "0"});
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out,
            "gpu_name, temperature.gpu, power.draw [W]\nNVIDIA H100 80GB HBM3, [N/A], [N/A]\n");
}

TEST(NvidiaSmiQuery, Gb10MemoryIsNotAvailableAsOnTheRealOne) {
  Host h("gx10");
  auto a = h.ask({"--query-gpu=name,memory.total,memory.used,compute_cap", "--format=csv"});
  EXPECT_EQ(a.out,
            "name, memory.total [MiB], memory.used [MiB], compute_cap\nNVIDIA GB10, [N/A], [N/A], "
            "12.1\n");
}

TEST(NvidiaSmiQuery, FormatIsMandatoryAndMustBeCsv) {
  Host h("dgx-h100");
  EXPECT_EQ(h.ask({"--query-gpu=name"}).exit_code, 2);
  EXPECT_EQ(h.ask({"--query-gpu=name", "--format=json"}).exit_code, 2);
}

TEST(NvidiaSmiQuery, NoDriverFailsEveryArgvAsTheRealTool) {
  Host h("nvidia-no-driver");
  for (auto args : std::vector<std::vector<std::string>>{
           {}, {"-L"}, {"-q", "-x"}, {"--query-gpu=name", "--format=csv"}, {"topo", "-m"}}) {
    auto a = h.ask(args);
    EXPECT_EQ(a.exit_code, 9);
    EXPECT_EQ(a.out.rfind("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                          "driver.",
                          0),
              0u);
  }
}

TEST(NvidiaSmiFields, TheHelpListsNamesAndAliases) {
  EXPECT_TRUE(is_query_gpu_field("memory.total"));
  EXPECT_TRUE(is_query_gpu_field("gpu_name"));
  EXPECT_FALSE(is_query_gpu_field("memory"));
  EXPECT_EQ(canonical_query_field("gpu_uuid"), "uuid");
  EXPECT_EQ(query_field_unit("memory.free"), "MiB");
  EXPECT_EQ(query_field_unit("clocks.max.sm"), "MHz");
  EXPECT_EQ(query_field_unit("pci.bus_id"), "");
}

}  // namespace
}  // namespace hwaccel::sim
