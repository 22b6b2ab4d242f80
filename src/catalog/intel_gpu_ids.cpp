#include "src/catalog/intel_gpu_ids.h"

namespace hwaccel {
namespace {

struct Row {
  std::uint16_t id;
  IntelGpuModel model;
};

constexpr Row kRows[] = {
    // Ponte Vecchio (PVC): Data Center GPU Max.
    {0x0bd5, {"Intel Data Center GPU Max 1550", "xe-hpc", true}},
    {0x0bda, {"Intel Data Center GPU Max 1100", "xe-hpc", true}},
    // DG2 (Alchemist): Arc A-series and Data Center GPU Flex.
    {0x56a0, {"Intel Arc A770", "xe-hpg", true}},
    {0x56a1, {"Intel Arc A750", "xe-hpg", true}},
    {0x56a5, {"Intel Arc A380", "xe-hpg", true}},
    {0x56c0, {"Intel Data Center GPU Flex 170", "xe-hpg", true}},
    {0x56c1, {"Intel Data Center GPU Flex 140", "xe-hpg", true}},
    // BMG (Battlemage).
    {0xe20b, {"Intel Arc B580", "xe2-hpg", true}},
    {0xe20c, {"Intel Arc B570", "xe2-hpg", true}},
    {0xe211, {"Intel Arc Pro B60", "xe2-hpg", true}},
    // Integrated.
    {0x7d55, {"Intel Arc Graphics (Meteor Lake)", "xe-lpg", false}},
    {0x7dd5, {"Intel Graphics (Meteor Lake)", "xe-lpg", false}},
    {0x7d45, {"Intel Graphics (Meteor Lake)", "xe-lpg", false}},
    {0x7d51, {"Intel Arc Graphics (Arrow Lake-H)", "xe-lpg", false}},
    {0x64a0, {"Intel Arc Graphics 130V/140V (Lunar Lake)", "xe2-lpg", false}},
    {0xa7a0, {"Intel Iris Xe Graphics (Raptor Lake-P)", "xe-lp", false}},
    {0x46a6, {"Intel Iris Xe Graphics (Alder Lake-P)", "xe-lp", false}},
    {0x9a49, {"Intel Iris Xe Graphics (Tiger Lake)", "xe-lp", false}},
};

}  // namespace

std::optional<IntelGpuModel> find_intel_gpu(std::uint16_t device_id) {
  for (const auto& row : kRows)
    if (row.id == device_id) return row.model;
  return std::nullopt;
}

}  // namespace hwaccel
