#include "src/snapshot/encoding.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

TEST(Base64, MatchesRfc4648Vectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_decode("Zm9vYmE=").value(), "fooba");
  EXPECT_EQ(base64_decode("3hAzIw==").value(), std::string("\xde\x10\x33\x23", 4));
}

TEST(Base64, RefusesGarbage) {
  EXPECT_FALSE(base64_decode("Zm9v!"));
  EXPECT_FALSE(base64_decode("Zg==Zg"));
  EXPECT_FALSE(base64_decode("Z"));
}

TEST(Utf8, TellsTextFromBytes) {
  EXPECT_TRUE(is_valid_utf8("plain ascii\n"));
  EXPECT_TRUE(is_valid_utf8("NVIDIA GeForce RTX\xe2\x84\xa2"));
  EXPECT_FALSE(is_valid_utf8("\xff"));
  EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));      // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));  // a surrogate
  EXPECT_FALSE(is_valid_utf8("\xe2\x84"));      // cut short
}

}  // namespace
}  // namespace hwaccel
