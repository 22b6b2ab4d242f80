// The parsers of the TPU, Gaudi, Neuron and Qualcomm probes and their catalogues
// answer hostile text without a throw or a crash (the pattern of
// parser_totality_test.cpp, kept apart so that each family's list stays its own).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/catalog/habana_ids.h"
#include "src/catalog/neuron_ids.h"
#include "src/probe/accel_class.h"
#include "src/probe/hl_smi_csv.h"
#include "src/probe/neuron_ls_json.h"
#include "src/probe/qaic_util.h"

namespace hwaccel {
namespace {

std::vector<std::string> accelerator_hostile_texts() {
  std::vector<std::string> texts = {
      "",
      "\n",
      std::string("\0\0\0", 3),
      "\xff\xfe\xfd invalid utf-8 \xc3\x28\n",
      "index, name, bus_id, memory.total [MiB]\n0, HL-, zz:zz, 18446744073709551615 MiB\n",
      "index, name\n99999999999999999999, HL-3\n",
      "[1e999]",
      "[{\"memory_size\": -1e400, \"nc_count\": 1e400, \"numa_node\": \"-99999999999999999999\"}]",
      "[{\"connected_to\": [1e999, -1, \"x\", null, 4096]}]",
      "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
      "QID 0\nQID 99999999999999999999\n\tDram Total:18446744073709551615 GB\n",
      "QID\nStatus\n:::\nNsp Total:-1\n",
      "HL-",
      "trn2.",
      ".",
      "../../../",
      "/",
  };
  texts.push_back(std::string(1 << 20, 'x'));
  std::string deep(100'000, '[');
  texts.push_back(deep);
  std::string many;
  for (int i = 0; i < 5'000; ++i) many += "QID " + std::to_string(i) + "\n\tNsp Total:16\n";
  texts.push_back(many);
  return texts;
}

TEST(AcceleratorParserTotality, EveryParserAnswersHostileText) {
  for (const std::string& text : accelerator_hostile_texts()) {
    SCOPED_TRACE(text.substr(0, 60));
    EXPECT_NO_THROW({
      (void)parse_hl_smi_query(text);
      (void)gaudi_generation_of_product(text);
      (void)parse_neuron_ls_json(text);
      (void)is_neuron_no_driver_message(text);
      (void)neuron_generation_of_instance(text);
      (void)parse_qaic_util(text);
      (void)parse_qaic_size(text);
      (void)pci_address_of_link(text);
    });
  }
}

}  // namespace
}  // namespace hwaccel
