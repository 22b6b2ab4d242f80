#include "src/catalog/habana_ids.h"

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr GaudiGeneration kGaudi1{"Intel Gaudi", "gaudi"};
constexpr GaudiGeneration kGaudi2{"Intel Gaudi 2", "gaudi2"};
constexpr GaudiGeneration kGaudi3{"Intel Gaudi 3", "gaudi3"};

}  // namespace

std::optional<GaudiGeneration> gaudi_generation_of_pci(std::uint16_t device_id) {
  switch (device_id) {
    case 0x1000:
    case 0x1010:
      return kGaudi1;
    case 0x1020:
    case 0x1021:
      return kGaudi2;
    case 0x1060:
    case 0x1063:
      return kGaudi3;
    default:
      return std::nullopt;
  }
}

std::optional<GaudiGeneration> gaudi_generation_of_product(std::string_view product) {
  product = trim(product);
  if (product.size() < 4 || to_lower(product.substr(0, 3)) != "hl-") return std::nullopt;
  switch (product[3]) {
    case '2':  // HL-205 is Gaudi; HL-225 and HL-288 are Gaudi 2
      if (product.substr(3, 2) == "20") return kGaudi1;
      return kGaudi2;
    case '3':
      return kGaudi3;
    default:
      return std::nullopt;
  }
}

}  // namespace hwaccel
