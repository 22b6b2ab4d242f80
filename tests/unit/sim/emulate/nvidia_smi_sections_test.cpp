// nvidia-smi -q -d NAME: the sections each display name selects, in -q's order;
// a recorded -q's sections verbatim (h200-load recorded one under load), built
// ones elsewhere, and the real tool's refusal of a name it does not take.
#include "sim/emulate/nvidia_smi_sections.h"

#include <gtest/gtest.h>

#include "tests/unit/sim/emulate/nvsmi_host.h"

namespace hwaccel::sim {
namespace {

using testing_nvsmi::Host;

TEST(NvidiaSmiSections, DisplayNamesSelectSectionsInTheOrderQPrintsThem) {
  EXPECT_EQ(display_sections("TEMPERATURE"), std::vector<std::string>{"Temperature"});
  EXPECT_FALSE(display_sections("temperature")) << "nvidia-smi's names are upper case";
  EXPECT_FALSE(display_sections("BOGUS"));
  // -q prints memory before temperature, whatever order -d names them in.
  EXPECT_EQ(displayed_titles({"TEMPERATURE", "MEMORY"}),
            (std::vector<std::string>{"FB Memory Usage", "BAR1 Memory Usage",
                                      "Conf Compute Protected Memory Usage", "Temperature"}));
}

TEST(NvidiaSmiSections, ARecordedQsSectionsAreItsOwnLines) {
  auto gpus = recorded_q_sections(
      "\n==============NVSMI LOG==============\n\nAttached GPUs : 1\n"
      "GPU 00000000:83:00.0\n    Product Name : NVIDIA H200\n    Temperature\n"
      "        GPU Current Temp : 52 C\n    GPU Memory Power Readings \n"
      "        Average Power Draw : 97.69 W\n\n");
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].first, "00000000:83:00.0");
  ASSERT_EQ(gpus[0].second.size(), 3u);
  EXPECT_EQ(gpus[0].second[1].title, "Temperature");
  EXPECT_EQ(gpus[0].second[1].text, "    Temperature\n        GPU Current Temp : 52 C\n");
  // The real title's trailing space stays in the text, not in the title.
  EXPECT_EQ(gpus[0].second[2].title, "GPU Memory Power Readings");
  EXPECT_EQ(gpus[0].second[2].text.rfind("    GPU Memory Power Readings \n", 0), 0u);
}

TEST(NvidiaSmiSections, AHostRecordedUnderLoadAnswersWithItsRecordedSections) {
  Host load("h200-load");
  auto a = load.ask({"-q", "-d", "TEMPERATURE,PIDS"});
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_NE(a.out.find("GPU 00000000:83:00.0\n    Temperature\n"
                       "        GPU Current Temp                               : 52 C\n"),
            std::string::npos);
  EXPECT_NE(a.out.find("            Name                          : ./gpu_burn\n"
                       "            Used GPU Memory               : 28234 MiB\n"),
            std::string::npos);
  EXPECT_EQ(a.out.find("Clocks"), std::string::npos);
  EXPECT_EQ(a.out.find("Product Name"), std::string::npos);
  // The recorded -q holds, byte for byte, the sections -q -d POWER gives.
  std::string recorded;
  for (const auto& [argv, tool] : load.host->snapshot().tools)
    if (argv == std::vector<std::string>{"nvidia-smi", "-q"}) recorded = tool.run.out;
  ASSERT_FALSE(recorded.empty());
  auto power = load.ask({"-q", "-d", "POWER"});
  auto at = power.out.find("    GPU Power Readings\n");
  ASSERT_NE(at, std::string::npos);
  const std::string sections = power.out.substr(at, power.out.size() - at - 1);
  EXPECT_NE(sections.find("    GPU Memory Power Readings \n"), std::string::npos);
  EXPECT_NE(recorded.find(sections), std::string::npos);
}

TEST(NvidiaSmiSections, WithoutARecordedQTheSectionsAreBuiltAndSayNA) {
  Host h("dgx-h100");
  auto a = h.ask({"-q", "-i", "0", "-d", "TEMPERATURE,MEMORY,PIDS"});
  EXPECT_EQ(a.exit_code, 0);
  auto memory = a.out.find("    FB Memory Usage\n");
  auto temperature = a.out.find("    Temperature\n        GPU Current Temp");
  ASSERT_NE(memory, std::string::npos);
  ASSERT_NE(temperature, std::string::npos);
  EXPECT_LT(memory, temperature);
  EXPECT_NE(a.out.find("        GPU Current Temp                               : N/A\n"),
            std::string::npos);
  EXPECT_NE(a.out.find("    Processes                                          : None\n"),
            std::string::npos);
  auto bad = h.ask({"-q", "-d", "TEMPERATURE,BOGUS"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("Invalid combination of input arguments"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
