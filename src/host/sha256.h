// SHA-256 (FIPS 180-4), for content-addressed names (the `hwsim run` tree
// cache keys its entries by the digest of a snapshot's bytes and hwsim's build).
// Not host access; it sits beside its one user, src/host/tree_cache.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hwaccel {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  // The digest as 64 lower-case hex digits; the object is spent afterwards.
  std::string hex();

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  std::array<unsigned char, 64> buf_{};
  std::size_t used_ = 0;
  std::uint64_t total_ = 0;
};

std::string sha256_hex(std::string_view bytes);

}  // namespace hwaccel
