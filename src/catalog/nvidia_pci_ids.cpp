#include "src/catalog/nvidia_pci_ids.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>

namespace hwaccel {
namespace {

// Sources (names as pci.ids writes them in brackets, with "NVIDIA " in front):
//   [IDS]  pci.ids 2023.04.10 (Debian 12 package pci.ids 0.0~2023.04.11-1), vendor 10de.
//   [CAP]  ../shared/real-captures nvidia-smi -q "Device Id" (0xDDDD10DE) and Product Name.
//   [LSPCI] public `lspci -nn` output of the machine (ids newer than [IDS]).
//   [IDS26] pci.ids 2026.08.22 (github.com/pciutils/pciids, commit c1c12547d626), vendor
//          10de, the device lines of chips GP1xx and later (Pascal to Blackwell) whose
//          bracketed name is a data-centre (Tesla, A/H/B/L, GH200, GB200), workstation
//          (Quadro, RTX A/Ada/PRO, T-series) or GeForce 10-50 / TITAN / CMP part; the chip
//          is beside each. " / " in pci.ids is written "/".
// Sorted by id (a static_assert checks). NVSwitches (class 0x0680 bridges) are not GPUs
// and are not listed.
constexpr std::array<std::pair<std::uint16_t, std::string_view>, 446> kNames = {{
    {0x15c2, "NVIDIA CMP 100-100"},                                    // [IDS26] GP100
    {0x15f0, "NVIDIA Quadro GP100"},                                   // [IDS26] GP100GL
    {0x15f7, "NVIDIA Tesla P100 PCIe 12GB"},                           // [IDS26] GP100GL
    {0x15f8, "NVIDIA Tesla P100 PCIe 16GB"},                           // [IDS26] GP100GL
    {0x15f9, "NVIDIA Tesla P100 SXM2 16GB"},                           // [IDS26] GP100GL
    {0x15fc, "NVIDIA Tesla P100-DGXS-16GB"},                           // [IDS26] GP100GL
    {0x1b00, "NVIDIA TITAN X Pascal"},                                 // [IDS26] GP102
    {0x1b01, "NVIDIA GeForce GTX 1080 Ti 10GB"},                       // [IDS26] GP102
    {0x1b02, "NVIDIA TITAN Xp"},                                       // [IDS26] GP102
    {0x1b06, "NVIDIA GeForce GTX 1080 Ti"},                            // [IDS26] GP102
    {0x1b30, "NVIDIA Quadro P6000"},                                   // [IDS26] GP102GL
    {0x1b38, "NVIDIA Tesla P40"},                                      // [IDS26] GP102GL
    {0x1b39, "NVIDIA Tesla P10"},                                      // [IDS26] GP102GL
    {0x1b80, "NVIDIA GeForce GTX 1080"},                               // [IDS26] GP104
    {0x1b81, "NVIDIA GeForce GTX 1070"},                               // [IDS26] GP104
    {0x1b82, "NVIDIA GeForce GTX 1070 Ti"},                            // [IDS26] GP104
    {0x1b83, "NVIDIA GeForce GTX 1060 6GB"},                           // [IDS26] GP104
    {0x1b84, "NVIDIA GeForce GTX 1060 3GB"},                           // [IDS26] GP104
    {0x1ba0, "NVIDIA GeForce GTX 1080 Mobile"},                        // [IDS26] GP104M
    {0x1ba1, "NVIDIA GeForce GTX 1070 Mobile"},                        // [IDS26] GP104M
    {0x1ba2, "NVIDIA GeForce GTX 1070 Mobile"},                        // [IDS26] GP104M
    {0x1bad, "NVIDIA GeForce GTX 1070 Engineering Sample"},            // [IDS26] GP104
    {0x1bb0, "NVIDIA Quadro P5000"},                                   // [IDS26] GP104GL
    {0x1bb1, "NVIDIA Quadro P4000"},                                   // [IDS26] GP104GL
    {0x1bb3, "NVIDIA Tesla P4"},                                       // [IDS26] GP104GL
    {0x1bb4, "NVIDIA Tesla P6"},                                       // [IDS26] GP104GL
    {0x1bb5, "NVIDIA Quadro P5200 Mobile"},                            // [IDS26] GP104GLM
    {0x1bb6, "NVIDIA Quadro P5000 Mobile"},                            // [IDS26] GP104GLM
    {0x1bb7, "NVIDIA Quadro P4000 Mobile"},                            // [IDS26] GP104GLM
    {0x1bb8, "NVIDIA Quadro P3000 Mobile"},                            // [IDS26] GP104GLM
    {0x1bb9, "NVIDIA Quadro P4200 Mobile"},                            // [IDS26] GP104GLM
    {0x1bbb, "NVIDIA Quadro P3200 Mobile"},                            // [IDS26] GP104GLM
    {0x1be0, "NVIDIA GeForce GTX 1080 Mobile"},                        // [IDS26] GP104BM
    {0x1be1, "NVIDIA GeForce GTX 1070 Mobile"},                        // [IDS26] GP104BM
    {0x1c02, "NVIDIA GeForce GTX 1060 3GB"},                           // [IDS26] GP106
    {0x1c03, "NVIDIA GeForce GTX 1060 6GB"},                           // [IDS26] GP106
    {0x1c04, "NVIDIA GeForce GTX 1060 5GB"},                           // [IDS26] GP106
    {0x1c06, "NVIDIA GeForce GTX 1060 6GB Rev. 2"},                    // [IDS26] GP106
    {0x1c20, "NVIDIA GeForce GTX 1060 Mobile"},                        // [IDS26] GP106M
    {0x1c21, "NVIDIA GeForce GTX 1050 Ti Mobile"},                     // [IDS26] GP106M
    {0x1c22, "NVIDIA GeForce GTX 1050 Mobile"},                        // [IDS26] GP106M
    {0x1c23, "NVIDIA GeForce GTX 1060 Mobile Rev. 2"},                 // [IDS26] GP106M
    {0x1c30, "NVIDIA Quadro P2000"},                                   // [IDS26] GP106GL
    {0x1c31, "NVIDIA Quadro P2200"},                                   // [IDS26] GP106GL
    {0x1c35, "NVIDIA Quadro P2000 Mobile/DRIVE PX 2 AutoChauffeur"},   // [IDS26] GP106M
    {0x1c60, "NVIDIA GeForce GTX 1060 Mobile 6GB"},                    // [IDS26] GP106BM
    {0x1c61, "NVIDIA GeForce GTX 1050 Ti Mobile"},                     // [IDS26] GP106BM
    {0x1c62, "NVIDIA GeForce GTX 1050 Mobile"},                        // [IDS26] GP106BM
    {0x1c81, "NVIDIA GeForce GTX 1050"},                               // [IDS26] GP107
    {0x1c82, "NVIDIA GeForce GTX 1050 Ti"},                            // [IDS26] GP107
    {0x1c83, "NVIDIA GeForce GTX 1050 3GB"},                           // [IDS26] GP107
    {0x1c8c, "NVIDIA GeForce GTX 1050 Ti Mobile"},                     // [IDS26] GP107M
    {0x1c8d, "NVIDIA GeForce GTX 1050 Mobile"},                        // [IDS26] GP107M
    {0x1c8f, "NVIDIA GeForce GTX 1050 Ti Max-Q"},                      // [IDS26] GP107M
    {0x1c90, "NVIDIA GeForce MX150"},                                  // [IDS26] GP107M
    {0x1c91, "NVIDIA GeForce GTX 1050 3 GB Max-Q"},                    // [IDS26] GP107M
    {0x1c92, "NVIDIA GeForce GTX 1050 Mobile"},                        // [IDS26] GP107M
    {0x1c94, "NVIDIA GeForce MX350"},                                  // [IDS26] GP107M
    {0x1c96, "NVIDIA GeForce MX350"},                                  // [IDS26] GP107M
    {0x1cb1, "NVIDIA Quadro P1000"},                                   // [IDS26] GP107GL
    {0x1cb2, "NVIDIA Quadro P600"},                                    // [IDS26] GP107GL
    {0x1cb3, "NVIDIA Quadro P400"},                                    // [IDS26] GP107GL
    {0x1cb6, "NVIDIA Quadro P620"},                                    // [IDS26] GP107GL
    {0x1cba, "NVIDIA Quadro P2000 Mobile"},                            // [IDS26] GP107GLM
    {0x1cbb, "NVIDIA Quadro P1000 Mobile"},                            // [IDS26] GP107GLM
    {0x1cbc, "NVIDIA Quadro P600 Mobile"},                             // [IDS26] GP107GLM
    {0x1cbd, "NVIDIA Quadro P620"},                                    // [IDS26] GP107GLM
    {0x1ccc, "NVIDIA GeForce GTX 1050 Ti Mobile"},                     // [IDS26] GP107BM
    {0x1ccd, "NVIDIA GeForce GTX 1050 Mobile"},                        // [IDS26] GP107BM
    {0x1cfa, "NVIDIA Quadro P2000"},                                   // [IDS26] GP107GL
    {0x1cfb, "NVIDIA Quadro P1000"},                                   // [IDS26] GP107GL
    {0x1d01, "NVIDIA GeForce GT 1030"},                                // [IDS26] GP108
    {0x1d02, "NVIDIA GeForce GT 1010"},                                // [IDS26] GP108
    {0x1d10, "NVIDIA GeForce MX150"},                                  // [IDS26] GP108M
    {0x1d11, "NVIDIA GeForce MX230"},                                  // [IDS26] GP108M
    {0x1d12, "NVIDIA GeForce MX150"},                                  // [IDS26] GP108M
    {0x1d13, "NVIDIA GeForce MX250"},                                  // [IDS26] GP108M
    {0x1d16, "NVIDIA GeForce MX330"},                                  // [IDS26] GP108M
    {0x1d33, "NVIDIA Quadro P500 Mobile"},                             // [IDS26] GP108GLM
    {0x1d34, "NVIDIA Quadro P520"},                                    // [IDS26] GP108GLM
    {0x1d52, "NVIDIA GeForce MX250"},                                  // [IDS26] GP108BM
    {0x1d56, "NVIDIA GeForce MX330"},                                  // [IDS26] GP108BM
    {0x1d81, "NVIDIA TITAN V"},                                        // [IDS26] GV100
    {0x1d83, "NVIDIA CMP 100-200"},                                    // [IDS26] GV100
    {0x1d84, "NVIDIA CMP 100-210"},                                    // [IDS26] GV100
    {0x1db0, "NVIDIA Tesla GV100 SXM2-16GB SKU 890"},                  // [IDS26] GV100GL
    {0x1db1, "NVIDIA Tesla V100 SXM2 16GB"},                           // [IDS26] GV100GL
    {0x1db2, "NVIDIA Tesla V100 DGXS 16GB"},                           // [IDS26] GV100GL
    {0x1db3, "NVIDIA Tesla V100 FHHL 16GB"},                           // [IDS26] GV100GL
    {0x1db4, "NVIDIA Tesla V100 PCIe 16GB"},                           // [IDS]
    {0x1db5, "NVIDIA Tesla V100 SXM2 32GB"},                           // [IDS26] GV100GL
    {0x1db6, "NVIDIA Tesla V100 PCIe 32GB"},                           // [IDS]
    {0x1db7, "NVIDIA Tesla V100 DGXS 32GB"},                           // [IDS26] GV100GL
    {0x1db8, "NVIDIA Tesla V100 SXM3 32GB"},                           // [IDS26] GV100GL
    {0x1dbd, "NVIDIA Tesla GV100 DGX1-V"},                             // [IDS26] GV100GL
    {0x1dc1, "NVIDIA CMP 100-200"},                                    // [IDS26] GV100
    {0x1df0, "NVIDIA Tesla PG500-216"},                                // [IDS26] GV100GL
    {0x1df2, "NVIDIA Tesla PG503-216"},                                // [IDS26] GV100GL
    {0x1df4, "NVIDIA CMP 100-210"},                                    // [IDS26] GV100
    {0x1df5, "NVIDIA Tesla V100 SXM2 16GB"},                           // [IDS26] GV100GL
    {0x1df6, "NVIDIA Tesla V100S PCIe 32GB"},                          // [IDS26] GV100GL
    {0x1e02, "NVIDIA TITAN RTX"},                                      // [IDS26] TU102
    {0x1e03, "NVIDIA GeForce RTX 2080 Ti 12GB"},                       // [IDS26] TU102
    {0x1e04, "NVIDIA GeForce RTX 2080 Ti"},                            // [IDS26] TU102
    {0x1e07, "NVIDIA GeForce RTX 2080 Ti Rev. A"},                     // [IDS26] TU102
    {0x1e09, "NVIDIA CMP 50HX"},                                       // [IDS26] TU102
    {0x1e2d, "NVIDIA GeForce RTX 2080 Ti Engineering Sample"},         // [IDS26] TU102
    {0x1e2e, "NVIDIA GeForce RTX 2080 Ti 12GB Engineering Sample"},    // [IDS26] TU102
    {0x1e30, "NVIDIA Quadro RTX 6000/8000"},                           // [IDS26] TU102GL
    {0x1e35, "NVIDIA Tesla T10"},                                      // [IDS26] TU102GL
    {0x1e36, "NVIDIA Quadro RTX 6000"},                                // [IDS26] TU102GL
    {0x1e37, "NVIDIA Tesla T10 16GB/GRID RTX T10-2/T10-4/T10-8"},      // [IDS26] TU102GL
    {0x1e38, "NVIDIA Tesla T40 24GB"},                                 // [IDS26] TU102GL
    {0x1e78, "NVIDIA Quadro RTX 6000/8000"},                           // [IDS26] TU102GL
    {0x1e81, "NVIDIA GeForce RTX 2080 SUPER"},                         // [IDS26] TU104
    {0x1e82, "NVIDIA GeForce RTX 2080"},                               // [IDS26] TU104
    {0x1e84, "NVIDIA GeForce RTX 2070 SUPER"},                         // [IDS26] TU104
    {0x1e87, "NVIDIA GeForce RTX 2080 Rev. A"},                        // [IDS26] TU104
    {0x1e89, "NVIDIA GeForce RTX 2060"},                               // [IDS26] TU104
    {0x1e90, "NVIDIA GeForce RTX 2080 Mobile"},                        // [IDS26] TU104M
    {0x1e91, "NVIDIA GeForce RTX 2070 SUPER Mobile/Max-Q"},            // [IDS26] TU104M
    {0x1e93, "NVIDIA GeForce RTX 2080 SUPER Mobile/Max-Q"},            // [IDS26] TU104M
    {0x1eb0, "NVIDIA Quadro RTX 5000"},                                // [IDS26] TU104GL
    {0x1eb1, "NVIDIA Quadro RTX 4000"},                                // [IDS26] TU104GL
    {0x1eb4, "NVIDIA T4G"},                                            // [IDS26] TU104GL
    {0x1eb5, "NVIDIA Quadro RTX 5000 Mobile/Max-Q"},                   // [IDS26] TU104GLM
    {0x1eb6, "NVIDIA Quadro RTX 4000 Mobile/Max-Q"},                   // [IDS26] TU104GLM
    {0x1eb8, "NVIDIA Tesla T4"},                                       // [IDS]
    {0x1eba, "NVIDIA PG189 SKU600"},                                   // [IDS26] TU104GL
    {0x1ec2, "NVIDIA GeForce RTX 2070 SUPER"},                         // [IDS26] TU104
    {0x1ec7, "NVIDIA GeForce RTX 2070 SUPER"},                         // [IDS26] TU104
    {0x1ed0, "NVIDIA GeForce RTX 2080 Mobile"},                        // [IDS26] TU104BM
    {0x1ed1, "NVIDIA GeForce RTX 2070 SUPER Mobile/Max-Q"},            // [IDS26] TU104BM
    {0x1ed3, "NVIDIA GeForce RTX 2080 SUPER Mobile/Max-Q"},            // [IDS26] TU104BM
    {0x1ef5, "NVIDIA Quadro RTX 5000 Mobile Refresh"},                 // [IDS26] TU104GLM
    {0x1f02, "NVIDIA GeForce RTX 2070"},                               // [IDS26] TU106
    {0x1f03, "NVIDIA GeForce RTX 2060 12GB"},                          // [IDS26] TU106
    {0x1f06, "NVIDIA GeForce RTX 2060 SUPER"},                         // [IDS26] TU106
    {0x1f07, "NVIDIA GeForce RTX 2070 Rev. A"},                        // [IDS26] TU106
    {0x1f08, "NVIDIA GeForce RTX 2060 Rev. A"},                        // [IDS26] TU106
    {0x1f09, "NVIDIA GeForce GTX 1660 SUPER"},                         // [IDS26] TU106
    {0x1f0a, "NVIDIA GeForce GTX 1650"},                               // [IDS26] TU106
    {0x1f0b, "NVIDIA CMP 40HX"},                                       // [IDS26] TU106
    {0x1f10, "NVIDIA GeForce RTX 2070 Mobile"},                        // [IDS26] TU106M
    {0x1f11, "NVIDIA GeForce RTX 2060 Mobile"},                        // [IDS26] TU106M
    {0x1f12, "NVIDIA GeForce RTX 2060 Max-Q"},                         // [IDS26] TU106M
    {0x1f14, "NVIDIA GeForce RTX 2070 Mobile/Max-Q Refresh"},          // [IDS26] TU106M
    {0x1f15, "NVIDIA GeForce RTX 2060 Mobile"},                        // [IDS26] TU106M
    {0x1f36, "NVIDIA Quadro RTX 3000 Mobile/Max-Q"},                   // [IDS26] TU106GLM
    {0x1f42, "NVIDIA GeForce RTX 2060 SUPER"},                         // [IDS26] TU106
    {0x1f47, "NVIDIA GeForce RTX 2060 SUPER"},                         // [IDS26] TU106
    {0x1f50, "NVIDIA GeForce RTX 2070 Mobile/Max-Q"},                  // [IDS26] TU106BM
    {0x1f51, "NVIDIA GeForce RTX 2060 Mobile"},                        // [IDS26] TU106BM
    {0x1f54, "NVIDIA GeForce RTX 2070 Mobile"},                        // [IDS26] TU106BM
    {0x1f55, "NVIDIA GeForce RTX 2060 Mobile"},                        // [IDS26] TU106BM
    {0x1f76, "NVIDIA Quadro RTX 3000 Mobile Refresh"},                 // [IDS26] TU106GLM
    {0x1f82, "NVIDIA GeForce GTX 1650"},                               // [IDS26] TU117
    {0x1f83, "NVIDIA GeForce GTX 1630"},                               // [IDS26] TU117
    {0x1f91, "NVIDIA GeForce GTX 1650 Mobile/Max-Q"},                  // [IDS26] TU117M
    {0x1f92, "NVIDIA GeForce GTX 1650 Mobile"},                        // [IDS26] TU117M
    {0x1f94, "NVIDIA GeForce GTX 1650 Mobile"},                        // [IDS26] TU117M
    {0x1f95, "NVIDIA GeForce GTX 1650 Ti Mobile"},                     // [IDS26] TU117M
    {0x1f96, "NVIDIA GeForce GTX 1650 Mobile/Max-Q"},                  // [IDS26] TU117M
    {0x1f97, "NVIDIA GeForce MX450"},                                  // [IDS26] TU117M
    {0x1f98, "NVIDIA GeForce MX450"},                                  // [IDS26] TU117M
    {0x1f99, "NVIDIA GeForce GTX 1650 Mobile/Max-Q"},                  // [IDS26] TU117M
    {0x1f9c, "NVIDIA GeForce MX450"},                                  // [IDS26] TU117M
    {0x1f9d, "NVIDIA GeForce GTX 1650 Mobile/Max-Q"},                  // [IDS26] TU117M
    {0x1f9f, "NVIDIA GeForce MX550"},                                  // [IDS26] TU117M
    {0x1fa0, "NVIDIA GeForce MX550"},                                  // [IDS26] TU117M
    {0x1fb0, "NVIDIA Quadro T1000 Mobile"},                            // [IDS26] TU117GLM
    {0x1fb1, "NVIDIA T600"},                                           // [IDS26] TU117GL
    {0x1fb2, "NVIDIA Quadro T400 Mobile"},                             // [IDS26] TU117GLM
    {0x1fb6, "NVIDIA T600 Laptop GPU"},                                // [IDS26] TU117GLM
    {0x1fb7, "NVIDIA T550 Laptop GPU"},                                // [IDS26] TU117GLM
    {0x1fb8, "NVIDIA Quadro T2000 Mobile/Max-Q"},                      // [IDS26] TU117GLM
    {0x1fb9, "NVIDIA Quadro T1000 Mobile"},                            // [IDS26] TU117GLM
    {0x1fba, "NVIDIA T600 Mobile"},                                    // [IDS26] TU117GLM
    {0x1fbb, "NVIDIA Quadro T500 Mobile"},                             // [IDS26] TU117GLM
    {0x1fbc, "NVIDIA T1200 Laptop GPU"},                               // [IDS26] TU117GLM
    {0x1fd9, "NVIDIA GeForce GTX 1650 Mobile Refresh"},                // [IDS26] TU117BM
    {0x1fdd, "NVIDIA GeForce GTX 1650 Mobile Refresh"},                // [IDS26] TU117BM
    {0x1ff0, "NVIDIA T1000 8GB"},                                      // [IDS26] TU117GL
    {0x1ff2, "NVIDIA T400 4GB/T400E"},                                 // [IDS26] TU117GL
    {0x1ff9, "NVIDIA Quadro T1000 Mobile"},                            // [IDS26] TU117GLM
    {0x2082, "NVIDIA CMP 170HX"},                                      // [IDS26] GA100
    {0x20b0, "NVIDIA A100 SXM4 40GB"},                                 // [IDS]
    {0x20b1, "NVIDIA A100 PCIe 40GB"},                                 // [IDS26] GA100
    {0x20b2, "NVIDIA A100 SXM4 80GB"},                                 // [IDS]
    {0x20b3, "NVIDIA A100-SXM-64GB"},                                  // [IDS26] GA100
    {0x20b5, "NVIDIA A100 PCIe 80GB"},                                 // [IDS]
    {0x20b6, "NVIDIA PG506-232"},                                      // [IDS26] GA100GL
    {0x20b7, "NVIDIA A30 PCIe"},                                       // [IDS]
    {0x20b8, "NVIDIA A100X"},                                          // [IDS26] GA100
    {0x20b9, "NVIDIA A30X"},                                           // [IDS26] GA100
    {0x20bd, "NVIDIA A800 SXM4 40GB"},                                 // [IDS26] GA100
    {0x20c2, "NVIDIA CMP 170HX"},                                      // [IDS26] GA100
    {0x20f0, "NVIDIA A100-PG506-207"},                                 // [IDS26] GA100
    {0x20f1, "NVIDIA A100 PCIe 40GB"},                                 // [IDS]
    {0x20f2, "NVIDIA A100-PG506-217"},                                 // [IDS26] GA100
    {0x20f3, "NVIDIA A800-SXM4-80GB"},                                 // [IDS26] GA100
    {0x20f5, "NVIDIA A800 80GB PCIe"},                                 // [IDS26] GA100
    {0x20f6, "NVIDIA A800 40GB PCIe"},                                 // [IDS26] GA100
    {0x2182, "NVIDIA GeForce GTX 1660 Ti"},                            // [IDS26] TU116
    {0x2184, "NVIDIA GeForce GTX 1660"},                               // [IDS26] TU116
    {0x2186, "NVIDIA PG160 SKU18"},                                    // [IDS26] TU116
    {0x2187, "NVIDIA GeForce GTX 1650 SUPER"},                         // [IDS26] TU116
    {0x2188, "NVIDIA GeForce GTX 1650"},                               // [IDS26] TU116
    {0x2189, "NVIDIA CMP 30HX"},                                       // [IDS26] TU116
    {0x2191, "NVIDIA GeForce GTX 1660 Ti Mobile"},                     // [IDS26] TU116M
    {0x2192, "NVIDIA GeForce GTX 1650 Ti Mobile"},                     // [IDS26] TU116M
    {0x21c4, "NVIDIA GeForce GTX 1660 SUPER"},                         // [IDS26] TU116
    {0x21d1, "NVIDIA GeForce GTX 1660 Ti Mobile"},                     // [IDS26] TU116BM
    {0x2203, "NVIDIA GeForce RTX 3090 Ti"},                            // [IDS26] GA102
    {0x2204, "NVIDIA GeForce RTX 3090"},                               // [IDS]
    {0x2205, "NVIDIA GeForce RTX 3080 Ti 20GB"},                       // [IDS26] GA102
    {0x2206, "NVIDIA GeForce RTX 3080"},                               // [IDS26] GA102
    {0x2207, "NVIDIA GeForce RTX 3070 Ti"},                            // [IDS26] GA102
    {0x2208, "NVIDIA GeForce RTX 3080 Ti"},                            // [IDS26] GA102
    {0x220a, "NVIDIA GeForce RTX 3080 12GB"},                          // [IDS26] GA102
    {0x220d, "NVIDIA CMP 90HX"},                                       // [IDS26] GA102
    {0x2216, "NVIDIA GeForce RTX 3080 Lite Hash Rate"},                // [IDS26] GA102
    {0x222b, "NVIDIA GeForce RTX 3090 Engineering Sample"},            // [IDS26] GA102
    {0x222f, "NVIDIA GeForce RTX 3080 11GB/12GB Engineering Sample"},  // [IDS26] GA102
    {0x2230, "NVIDIA RTX A6000"},                                      // [IDS26] GA102GL
    {0x2231, "NVIDIA RTX A5000"},                                      // [IDS26] GA102GL
    {0x2232, "NVIDIA RTX A4500"},                                      // [IDS26] GA102GL
    {0x2233, "NVIDIA RTX A5500"},                                      // [IDS26] GA102GL
    {0x2235, "NVIDIA A40"},                                            // [IDS26] GA102GL
    {0x2236, "NVIDIA A10"},                                            // [IDS]
    {0x2237, "NVIDIA A10G"},                                           // [IDS]
    {0x2238, "NVIDIA A10M"},                                           // [IDS26] GA102GL
    {0x230c, "NVIDIA H20 NVL16"},                                      // [IDS26] GH100
    {0x230e, "NVIDIA H20 NVL16"},                                      // [IDS26] GH100
    {0x2313, "NVIDIA H100 CNX"},                                       // [IDS26] GH100
    {0x2321, "NVIDIA H100L 94GB"},                                     // [IDS26] GH100
    {0x2322, "NVIDIA H800 PCIe"},                                      // [IDS]
    {0x2324, "NVIDIA H800"},                                           // [IDS]
    {0x2328, "NVIDIA H20B"},                                           // [IDS26] GH100
    {0x2329, "NVIDIA H20"},                                            // [IDS26] GH100
    {0x232c, "NVIDIA H20 HBM3e"},                                      // [IDS26] GH100
    {0x2330, "NVIDIA H100 SXM5 80GB"},    // [IDS]; [CAP] H100 80GB HBM3 0x2330
    {0x2331, "NVIDIA H100 PCIe"},         // [IDS]
    {0x2335, "NVIDIA H200"},              // [CAP] H200 0x2335 ("H200 SXM 141GB" in newer pci.ids)
    {0x2336, "NVIDIA H100"},              // [IDS26] GH100
    {0x2337, "NVIDIA H100 SXM5 64GB"},    // [IDS26] GH100
    {0x2338, "NVIDIA H100 SXM5 96GB"},    // [IDS26] GH100
    {0x2339, "NVIDIA H100 SXM5 94GB"},    // [IDS26] GH100
    {0x233a, "NVIDIA H800L 94GB"},        // [IDS26] GH100
    {0x233b, "NVIDIA H200 NVL"},          // [IDS26] GH100
    {0x233d, "NVIDIA H100 96GB"},         // [IDS26] GH100
    {0x2342, "NVIDIA GH200 480GB"},       // [LSPCI] "GH100 [GH200 480GB] [10de:2342]", class 0302
    {0x2348, "NVIDIA GH200 144G HBM3e"},  // [IDS26] GH100
    {0x237e, "NVIDIA H100 GH3"},          // [IDS26] GH100
    {0x2414, "NVIDIA GeForce RTX 3060 Ti"},                     // [IDS26] GA103
    {0x2420, "NVIDIA GeForce RTX 3080 Ti Mobile"},              // [IDS26] GA103M
    {0x2438, "NVIDIA RTX A5500 Laptop GPU"},                    // [IDS26] GA103GLM
    {0x2460, "NVIDIA GeForce RTX 3080 Ti Laptop GPU"},          // [IDS26] GA103M
    {0x2482, "NVIDIA GeForce RTX 3070 Ti"},                     // [IDS26] GA104
    {0x2484, "NVIDIA GeForce RTX 3070"},                        // [IDS26] GA104
    {0x2486, "NVIDIA GeForce RTX 3060 Ti"},                     // [IDS26] GA104
    {0x2487, "NVIDIA GeForce RTX 3060"},                        // [IDS26] GA104
    {0x2488, "NVIDIA GeForce RTX 3070 Lite Hash Rate"},         // [IDS26] GA104
    {0x2489, "NVIDIA GeForce RTX 3060 Ti Lite Hash Rate"},      // [IDS26] GA104
    {0x248a, "NVIDIA CMP 70HX"},                                // [IDS26] GA104
    {0x248c, "NVIDIA GeForce RTX 3070 Ti"},                     // [IDS26] GA104
    {0x248d, "NVIDIA GeForce RTX 3070"},                        // [IDS26] GA104
    {0x248e, "NVIDIA GeForce RTX 3060 Ti"},                     // [IDS26] GA104
    {0x249c, "NVIDIA GeForce RTX 3080 Mobile/Max-Q 8GB/16GB"},  // [IDS26] GA104M
    {0x249d, "NVIDIA GeForce RTX 3070 Mobile/Max-Q"},           // [IDS26] GA104M
    {0x24ac, "NVIDIA GeForce RTX 30x0 Engineering Sample"},     // [IDS26] GA104
    {0x24ad, "NVIDIA GeForce RTX 3060 Engineering Sample"},     // [IDS26] GA104
    {0x24af, "NVIDIA GeForce RTX 3070 Engineering Sample"},     // [IDS26] GA104
    {0x24b0, "NVIDIA RTX A4000"},                               // [IDS26] GA104GL
    {0x24b1, "NVIDIA RTX A4000H"},                              // [IDS26] GA104GL
    {0x24b6, "NVIDIA RTX A5000 Mobile"},                        // [IDS26] GA104GLM
    {0x24b7, "NVIDIA RTX A4000 Mobile"},                        // [IDS26] GA104GLM
    {0x24b8, "NVIDIA RTX A3000 Mobile"},                        // [IDS26] GA104GLM
    {0x24b9, "NVIDIA RTX A3000 12GB Laptop GPU"},               // [IDS26] GA104GLM
    {0x24ba, "NVIDIA RTX A4500 Laptop GPU"},                    // [IDS26] GA104GLM
    {0x24bb, "NVIDIA RTX A3000 Laptop GPU"},                    // [IDS26] GA104GLM
    {0x24bf, "NVIDIA GeForce RTX 3070 Engineering Sample"},     // [IDS26] GA104
    {0x24c7, "NVIDIA GeForce RTX 3060 8GB"},                    // [IDS26] GA104
    {0x24c8, "NVIDIA GeForce RTX 3070 GDDR6X"},                 // [IDS26] GA104
    {0x24c9, "NVIDIA GeForce RTX 3060 Ti GDDR6X"},              // [IDS26] GA104
    {0x24dc, "NVIDIA GeForce RTX 3080 Mobile/Max-Q 8GB/16GB"},  // [IDS26] GA104M
    {0x24dd, "NVIDIA GeForce RTX 3070 Mobile/Max-Q"},           // [IDS26] GA104M
    {0x24fa, "NVIDIA RTX A4500 Embedded GPU"},                  // [IDS26] GA104
    {0x2501, "NVIDIA GeForce RTX 3060"},                        // [IDS26] GA106
    {0x2503, "NVIDIA GeForce RTX 3060"},                        // [IDS26] GA106
    {0x2504, "NVIDIA GeForce RTX 3060 Lite Hash Rate"},         // [IDS26] GA106
    {0x2508, "NVIDIA GeForce RTX 3050 OEM"},                    // [IDS26] GA106
    {0x2509, "NVIDIA GeForce RTX 3060 12GB Rev. 2"},            // [IDS26] GA106
    {0x2520, "NVIDIA GeForce RTX 3060 Mobile/Max-Q"},           // [IDS26] GA106M
    {0x2521, "NVIDIA GeForce RTX 3060 Laptop GPU"},             // [IDS26] GA106M
    {0x2523, "NVIDIA GeForce RTX 3050 Ti Mobile/Max-Q"},        // [IDS26] GA106M
    {0x252f, "NVIDIA GeForce RTX 3060 Engineering Sample"},     // [IDS26] GA106
    {0x2531, "NVIDIA RTX A2000"},                               // [IDS26] GA106
    {0x2544, "NVIDIA GeForce RTX 3060"},                        // [IDS26] GA106
    {0x2560, "NVIDIA GeForce RTX 3060 Mobile/Max-Q"},           // [IDS26] GA106M
    {0x2561, "NVIDIA GeForce RTX 3060 Laptop GPU"},             // [IDS26] GA106M
    {0x2563, "NVIDIA GeForce RTX 3050 Ti Mobile/Max-Q"},        // [IDS26] GA106M
    {0x2571, "NVIDIA RTX A2000 12GB"},                          // [IDS26] GA106
    {0x2582, "NVIDIA GeForce RTX 3050 8GB"},                    // [IDS26] GA107
    {0x2583, "NVIDIA GeForce RTX 3050 4GB"},                    // [IDS26] GA107
    {0x2584, "NVIDIA GeForce RTX 3050 6GB"},                    // [IDS26] GA107
    {0x25a0, "NVIDIA GeForce RTX 3050 Ti Mobile"},              // [IDS26] GA107M
    {0x25a2, "NVIDIA GeForce RTX 3050 Mobile"},                 // [IDS26] GA107M
    {0x25a5, "NVIDIA GeForce RTX 3050 Mobile"},                 // [IDS26] GA107M
    {0x25a6, "NVIDIA GeForce MX570"},                           // [IDS26] GA107M
    {0x25a7, "NVIDIA GeForce MX570"},                           // [IDS26] GA107M
    {0x25a9, "NVIDIA GeForce RTX 2050"},                        // [IDS26] GA107M
    {0x25aa, "NVIDIA GeForce MX570 A"},                         // [IDS26] GA107M
    {0x25ab, "NVIDIA GeForce RTX 3050 4GB Laptop GPU"},         // [IDS26] GA107M
    {0x25ac, "NVIDIA GeForce RTX 3050 6GB Laptop GPU"},         // [IDS26] GA107BM / GN20-P0-R-K2
    {0x25ad, "NVIDIA GeForce RTX 2050"},                        // [IDS26] GA107
    {0x25af, "NVIDIA GeForce RTX 3050 Engineering Sample"},     // [IDS26] GA107
    {0x25b0, "NVIDIA RTX A1000"},                               // [IDS26] GA107GL
    {0x25b2, "NVIDIA RTX A400"},                                // [IDS26] GA107GL
    {0x25b5, "NVIDIA RTX A4 Mobile"},                           // [IDS26] GA107GLM
    {0x25b6, "NVIDIA A2/A16"},                                  // [IDS26] GA107GL
    {0x25b8, "NVIDIA RTX A2000 Mobile"},                        // [IDS26] GA107GLM
    {0x25b9, "NVIDIA RTX A1000 Laptop GPU"},                    // [IDS26] GA107GLM
    {0x25ba, "NVIDIA RTX A2000 8GB Laptop GPU"},                // [IDS26] GA107GLM
    {0x25bb, "NVIDIA RTX A500 Laptop GPU"},                     // [IDS26] GA107GLM
    {0x25bc, "NVIDIA RTX A1000 6GB Laptop GPU"},                // [IDS26] GA107GLM
    {0x25bd, "NVIDIA RTX A500 Laptop GPU"},                     // [IDS26] GA107GLM
    {0x25e0, "NVIDIA GeForce RTX 3050 Ti Mobile"},              // [IDS26] GA107BM
    {0x25e2, "NVIDIA GeForce RTX 3050 Mobile"},                 // [IDS26] GA107BM
    {0x25e5, "NVIDIA GeForce RTX 3050 Mobile"},                 // [IDS26] GA107BM
    {0x25ec, "NVIDIA GeForce RTX 3050 6GB Laptop GPU"},         // [IDS26] GA107BM / GN20-P0-R-K2
    {0x25ed, "NVIDIA GeForce RTX 2050"},                        // [IDS26] GA107
    {0x25f9, "NVIDIA RTX A1000 Embedded GPU"},                  // [IDS26] GA107
    {0x25fa, "NVIDIA RTX A2000 Embedded GPU"},                  // [IDS26] GA107
    {0x25fb, "NVIDIA RTX A500 Embedded GPU"},                   // [IDS26] GA107
    {0x2681, "NVIDIA RTX TITAN Ada"},                           // [IDS26] AD102
    {0x2684, "NVIDIA GeForce RTX 4090"},                        // [IDS]
    {0x2685, "NVIDIA GeForce RTX 4090 D"},                      // [IDS26] AD102
    {0x2689, "NVIDIA GeForce RTX 4070 Ti SUPER"},               // [IDS26] AD102
    {0x26af, "NVIDIA PG137"},                                   // [IDS26] AD102
    {0x26b1, "NVIDIA RTX 6000 Ada Generation"},                 // [IDS26] AD102GL
    {0x26b2, "NVIDIA RTX 5000 Ada Generation"},                 // [IDS26] AD102GL
    {0x26b3, "NVIDIA RTX 5880 Ada Generation"},                 // [IDS26] AD102GL
    {0x26b5, "NVIDIA L40"},                                     // [IDS]
    {0x26b7, "NVIDIA L20"},                                     // [IDS26] AD102GL
    {0x26b8, "NVIDIA L40G"},                                    // [IDS26] AD102GL
    {0x26b9, "NVIDIA L40S"},                                    // [CAP] L40S 0x26B9
    {0x26ba, "NVIDIA L20"},                                     // [IDS26] AD102GL
    {0x26bb, "NVIDIA L30"},                                     // [IDS26] AD102GL
    {0x26f5, "NVIDIA L40 CNX"},                                 // [IDS26] AD102GL
    {0x2702, "NVIDIA GeForce RTX 4080 SUPER"},                  // [CAP] RTX 4080 SUPER 0x2702
    {0x2703, "NVIDIA GeForce RTX 4080 SUPER"},                  // [IDS26] AD103
    {0x2704, "NVIDIA GeForce RTX 4080"},                        // [IDS]
    {0x2705, "NVIDIA GeForce RTX 4070 Ti SUPER"},               // [IDS26] AD103
    {0x2709, "NVIDIA GeForce RTX 4070"},                        // [IDS26] AD103
    {0x2717, "NVIDIA GeForce RTX 4090 Laptop GPU"},             // [IDS26] AD103M / GN21-X11
    {0x2730, "NVIDIA RTX 5000 Ada Generation Laptop GPU"},      // [IDS26] AD103GLM
    {0x2757, "NVIDIA GeForce RTX 4090 Laptop GPU"},             // [IDS26] AD103M / GN21-X11
    {0x2770, "NVIDIA RTX 5000 Ada Generation Embedded GPU"},    // [IDS26] AD103GLM
    {0x2782, "NVIDIA GeForce RTX 4070 Ti"},                     // [IDS]
    {0x2783, "NVIDIA GeForce RTX 4070 SUPER"},                  // [IDS26] AD104
    {0x2786, "NVIDIA GeForce RTX 4070"},                        // [IDS26] AD104
    {0x2788, "NVIDIA GeForce RTX 4060 Ti"},                     // [IDS26] AD104
    {0x27a0, "NVIDIA GeForce RTX 4080 Max-Q/Mobile"},           // [IDS26] AD104M
    {0x27b1, "NVIDIA RTX 4500 Ada Generation"},                 // [IDS26] AD104GL
    {0x27b2, "NVIDIA RTX 4000 Ada Generation"},                 // [IDS26] AD104GL
    {0x27b6, "NVIDIA L2"},                                      // [IDS26] AD104GL
    {0x27b7, "NVIDIA L16"},                                     // [IDS26] AD104GL
    {0x27b8, "NVIDIA L4"},                                      // [IDS]
    {0x27ba, "NVIDIA RTX 4000 Ada Generation Laptop GPU"},      // [IDS26] AD104GLM
    {0x27bb, "NVIDIA RTX 3500 Ada Generation Laptop GPU"},      // [IDS26] AD104GLM
    {0x27e0, "NVIDIA GeForce RTX 4080 Max-Q/Mobile"},           // [IDS26] AD104M
    {0x27fa, "NVIDIA RTX 4000 Ada Generation Embedded GPU"},    // [IDS26] AD104GLM
    {0x27fb, "NVIDIA RTX 3500 Ada Generation Embedded GPU"},    // [IDS26] AD104GLM
    {0x2803, "NVIDIA GeForce RTX 4060 Ti"},                     // [IDS26] AD106
    {0x2805, "NVIDIA GeForce RTX 4060 Ti 16GB"},                // [IDS26] AD106
    {0x2808, "NVIDIA GeForce RTX 4060"},                        // [IDS26] AD106
    {0x2820, "NVIDIA GeForce RTX 4070 Max-Q/Mobile"},           // [IDS26] AD106M
    {0x2822, "NVIDIA GeForce RTX 3050 A Laptop GPU"},           // [IDS26] AD106M
    {0x2838, "NVIDIA RTX 3000 Ada Generation Laptop GPU"},      // [IDS26] AD106GLM
    {0x2860, "NVIDIA GeForce RTX 4070 Max-Q/Mobile"},           // [IDS26] AD106M
    {0x2878, "NVIDIA RTX 3000 Ada Generation Embedded GPU"},    // [IDS26] AD106GLM
    {0x2882, "NVIDIA GeForce RTX 4060"},                        // [IDS26] AD107
    {0x28a0, "NVIDIA GeForce RTX 4060 Max-Q/Mobile"},           // [IDS26] AD107M
    {0x28a1, "NVIDIA GeForce RTX 4050 Max-Q/Mobile"},           // [IDS26] AD107M
    {0x28a3, "NVIDIA GeForce RTX 3050 A Laptop GPU"},           // [IDS26] AD107M
    {0x28b8, "NVIDIA RTX 2000 Ada Generation Laptop GPU"},      // [IDS26] AD107GLM
    {0x28b9, "NVIDIA RTX 1000 Ada Generation Laptop GPU"},      // [IDS26] AD107GLM
    {0x28e0, "NVIDIA GeForce RTX 4060 Max-Q/Mobile"},           // [IDS26] AD107M
    {0x28e1, "NVIDIA GeForce RTX 4050 Max-Q/Mobile"},           // [IDS26] AD107M
    {0x28e3, "NVIDIA GeForce RTX 3050 A Laptop GPU"},           // [IDS26] AD107M
    {0x28f8, "NVIDIA RTX 2000 Ada Generation Embedded GPU"},    // [IDS26] AD107GLM
    {0x2901, "NVIDIA B200"},                                    // [IDS26] GB100
    {0x2909, "NVIDIA HGX B200 168GB"},                          // [IDS26] GB100
    {0x2920, "NVIDIA TS4/B100"},                                // [IDS26] GB100
    {0x2941, "NVIDIA HGX GB200"},                               // [IDS26] GB100
    {0x29bc, "NVIDIA B100"},                                    // [IDS26] GB102
    {0x2b00, "NVIDIA Jetson AGX Thor"},                         // [IDS26] GB10B
    {0x2b85, "NVIDIA GeForce RTX 5090"},                        // [IDS26] GB202
    {0x2b87, "NVIDIA GeForce RTX 5090 D"},                      // [IDS26] GB202
    {0x2b8c, "NVIDIA GeForce RTX 5090 D V2"},                   // [IDS26] GB202
    {0x2bb1, "NVIDIA RTX PRO 6000 Blackwell Workstation Edition"},          // [IDS26] GB202GL
    {0x2bb2, "NVIDIA RTX PRO 6000D Blackwell Workstation Edition"},         // [IDS26] GB202GL
    {0x2bb3, "NVIDIA RTX PRO 5000 Blackwell/RTX PRO 5000 72GB Blackwell"},  // [IDS26] GB202GL
    {0x2bb4, "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition"},    // [IDS26] GB202GL
    {0x2bb5, "NVIDIA RTX PRO 6000 Blackwell Server Edition"},               // [IDS26] GB202GL
    {0x2bbc, "NVIDIA RTX PRO 6000D Blackwell Max-Q Workstation Edition"},   // [IDS26] GB202GL
    {0x2c02, "NVIDIA GeForce RTX 5080"},                                    // [IDS26] GB203
    {0x2c05, "NVIDIA GeForce RTX 5070 Ti"},                                 // [IDS26] GB203
    {0x2c18, "NVIDIA GeForce RTX 5090 Max-Q/Mobile"},                       // [IDS26] GB203M / GN22
    {0x2c19, "NVIDIA GeForce RTX 5080 Max-Q/Mobile"},                       // [IDS26] GB203M / GN22
    {0x2c31, "NVIDIA RTX PRO 4500 Blackwell"},                              // [IDS26] GB203GL
    {0x2c33, "NVIDIA RTX PRO 4000 Blackwell SFF Edition"},                  // [IDS26] GB203GL
    {0x2c34, "NVIDIA RTX PRO 4000 Blackwell"},                              // [IDS26] GB203GL
    {0x2c38, "NVIDIA RTX PRO 5000 Blackwell Generation Laptop GPU"},        // [IDS26] GB203GLM
    {0x2c39, "NVIDIA RTX PRO 4000 Blackwell Generation Laptop GPU"},        // [IDS26] GB203GLM
    {0x2c3a, "NVIDIA RTX PRO 4500 Blackwell Server Edition"},               // [IDS26] GB203GL
    {0x2c58, "NVIDIA GeForce RTX 5090 Max-Q/Mobile"},                 // [IDS26] GB203M / GN22-X11
    {0x2c59, "NVIDIA GeForce RTX 5080 Max-Q/Mobile"},                 // [IDS26] GB203M / GN22-X9
    {0x2c77, "NVIDIA RTX PRO 5000 Blackwell Embedded GPU"},           // [IDS26] GB203GLM
    {0x2c79, "NVIDIA RTX PRO 4000 Blackwell Embedded GPU"},           // [IDS26] GB203GLM
    {0x2d04, "NVIDIA GeForce RTX 5060 Ti"},                           // [IDS26] GB206
    {0x2d05, "NVIDIA GeForce RTX 5060"},                              // [IDS26] GB206
    {0x2d18, "NVIDIA GeForce RTX 5070 Max-Q/Mobile"},                 // [IDS26] GB206M
    {0x2d19, "NVIDIA GeForce RTX 5060 Max-Q/Mobile"},                 // [IDS26] GB206M
    {0x2d30, "NVIDIA RTX PRO 2000 Blackwell"},                        // [IDS26] GB206GL
    {0x2d39, "NVIDIA RTX PRO 2000 Blackwell Generation Laptop GPU"},  // [IDS26] GB206GLM
    {0x2d58, "NVIDIA GeForce RTX 5070 Max-Q/Mobile"},                 // [IDS26] GB206M
    {0x2d59, "NVIDIA GeForce RTX 5060 Max-Q/Mobile"},                 // [IDS26] GB206M
    {0x2d79, "NVIDIA RTX PRO 2000 Blackwell Embedded GPU"},           // [IDS26] GB206GLM
    {0x2d83, "NVIDIA GeForce RTX 5050"},                              // [IDS26] GB207
    {0x2d98, "NVIDIA GeForce RTX 5050 Max-Q/Mobile"},                 // [IDS26] GB207M
    {0x2db8, "NVIDIA RTX PRO 1000 Blackwell Generation Laptop GPU"},  // [IDS26] GB207GLM
    {0x2db9, "NVIDIA RTX PRO 500 Blackwell Generation Laptop GPU"},   // [IDS26] GB207GLM
    {0x2dd8, "NVIDIA GeForce RTX 5050 Max-Q/Mobile"},                 // [IDS26] GB207M
    {0x2df9, "NVIDIA RTX PRO 500 Blackwell Embedded GPU"},            // [IDS26] GB207GLM
    {0x2e12, "NVIDIA GB10"},              // [LSPCI] DGX Spark "Device [10de:2e12]", class 0300
    {0x2f04, "NVIDIA GeForce RTX 5070"},  // [IDS26] GB205
    {0x2f06, "NVIDIA GeForce RTX 5060"},  // [IDS26] GB205
    {0x2f18, "NVIDIA GeForce RTX 5070 Ti Mobile"},                    // [IDS26] GB205M
    {0x2f38, "NVIDIA RTX PRO 3000 Blackwell Generation Laptop GPU"},  // [IDS26] GB205GLM
    {0x2f58, "NVIDIA GeForce RTX 5070 Ti Mobile"},                    // [IDS26] GB205M
    {0x3182, "NVIDIA B300 SXM6 AC"},                                  // [IDS26] GB110
    {0x31a1, "NVIDIA GB300 MaxQ"},                                    // [IDS26] GB110
    {0x31c2, "NVIDIA GB300"},                                         // [IDS26] GB110
    {0x31c3, "NVIDIA GB300"},                                         // [IDS26] GB110
}};

static_assert(std::is_sorted(kNames.begin(), kNames.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; }),
              "kNames must stay sorted by device id");

}  // namespace

std::optional<std::string_view> nvidia_pci_product_name(std::uint16_t device_id) {
  auto at = std::lower_bound(kNames.begin(), kNames.end(), device_id,
                             [](const auto& entry, std::uint16_t id) { return entry.first < id; });
  if (at == kNames.end() || at->first != device_id) return std::nullopt;
  return at->second;
}

std::string nvidia_pci_device_name(std::uint16_t device_id) {
  if (auto known = nvidia_pci_product_name(device_id)) return std::string(*known);
  char buf[32];
  std::snprintf(buf, sizeof buf, "NVIDIA device 0x%04x", unsigned(device_id));
  return buf;
}

}  // namespace hwaccel
