#include "src/snapshot/plain_text.h"

#include <gtest/gtest.h>

#include <string>

namespace hwaccel {
namespace {

TEST(SnapshotPlainText, AsciiWithTabsAndLineBreaksIsPlain) {
  EXPECT_TRUE(snapshot_is_plain_text(""));
  EXPECT_TRUE(snapshot_is_plain_text("processor\t: 0\nflags\t\t: fpu vme\n"));
  EXPECT_TRUE(snapshot_is_plain_text(std::string(1000, 'a') + "\n"));
}

TEST(SnapshotPlainText, WhatTheLineReaderCannotSeeIsNot) {
  EXPECT_FALSE(snapshot_is_plain_text("a\r\nb\n"));  // carriage return
  EXPECT_FALSE(
      snapshot_is_plain_text("\xef\xbb\xbf"
                             "a: 1\n"));  // byte-order mark
  EXPECT_FALSE(
      snapshot_is_plain_text("a\xc2\x85"
                             "b\n"));  // NEL
  EXPECT_FALSE(
      snapshot_is_plain_text("a\xe2\x80\xa8"
                             "b\n"));  // line separator
  EXPECT_FALSE(
      snapshot_is_plain_text("a\xe2\x80\xa9"
                             "b\n"));                    // paragraph separator
  EXPECT_FALSE(snapshot_is_plain_text("caf\xc3\n"));     // cut UTF-8
  EXPECT_TRUE(snapshot_is_plain_text("caf\xc3\xa9\n"));  // whole UTF-8
}

// Each refused byte at every place of texts of lengths 0 to 40: the sixteen-byte
// blocks, the eight-byte words after them and the last bytes one at a time.
TEST(SnapshotPlainText, EveryPlaceOfEveryLengthIsLookedAt) {
  for (std::size_t length = 1; length <= 40; ++length) {
    const std::string clean(length, 'x');
    ASSERT_TRUE(snapshot_is_plain_text(clean)) << length;
    for (char bad : {'\x00', '\x01', '\x0b', '\x0d', '\x1f', '\x7f'})
      for (std::size_t i = 0; i < length; ++i) {
        std::string text = clean;
        text[i] = bad;
        EXPECT_FALSE(snapshot_is_plain_text(text)) << length << " " << int(bad) << " at " << i;
      }
    // A byte past ASCII anywhere sends the text to the UTF-8 check.
    for (std::size_t i = 0; i < length; ++i) {
      std::string text = clean;
      text[i] = '\xff';
      EXPECT_FALSE(snapshot_is_plain_text(text)) << length << " at " << i;
    }
  }
}

}  // namespace
}  // namespace hwaccel
