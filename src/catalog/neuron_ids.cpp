#include "src/catalog/neuron_ids.h"

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr NeuronGeneration kInferentia{"AWS Inferentia", "neuroncore_v1", 4, 8};
constexpr NeuronGeneration kInferentia2{"AWS Inferentia2", "neuroncore_v2", 2, 32};
constexpr NeuronGeneration kTrainium{"AWS Trainium", "neuroncore_v2", 2, 32};
constexpr NeuronGeneration kTrainium2{"AWS Trainium2", "neuroncore_v3", 8, 96};

}  // namespace

std::optional<NeuronGeneration> neuron_generation_of_pci(std::uint16_t device_id) {
  switch (device_id) {
    case 0x7064:
    case 0x7065:
    case 0x7066:
    case 0x7067:
      return kInferentia;
    case 0x7164:
      return kTrainium;
    case 0x7264:
      return kInferentia2;
    case 0x7364:
      return kTrainium2;
    default:
      return std::nullopt;
  }
}

std::optional<NeuronGeneration> neuron_generation_of_instance(std::string_view instance_type) {
  const std::string type = to_lower(trim(instance_type));
  const auto dot = type.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string family = type.substr(0, dot);
  if (family == "inf1") return kInferentia;
  if (family == "inf2") return kInferentia2;
  if (family == "trn1" || family == "trn1n") return kTrainium;
  if (family == "trn2" || family == "trn2u") return kTrainium2;
  return std::nullopt;
}

}  // namespace hwaccel
