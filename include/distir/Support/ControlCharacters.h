//===- ControlCharacters.h - One-line messages about arbitrary bytes -*- C++
//-*-===//
//
// Errors quote what they read (a JSON key, a .npy header's dtype), and those
// bytes may hold line breaks or terminal escapes that would break the one
// line every error is. Readers escape their messages on the way out.
// Header-only plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SUPPORT_CONTROLCHARACTERS_H
#define DISTIR_SUPPORT_CONTROLCHARACTERS_H

#include <string>
#include <string_view>

namespace distir {

/// The control characters, for find_first_of.
inline constexpr std::string_view kControlCharacters(
    "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10"
    "\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f\x00",
    33);

/// `text` with control characters (below 0x20, and 0x7f) as \xNN.
inline std::string escapeControlCharacters(std::string_view text) {
  std::string escaped;
  for (unsigned char c : text) {
    if (c >= 0x20 && c != 0x7f) {
      escaped += static_cast<char>(c);
      continue;
    }
    const char *digits = "0123456789abcdef";
    escaped += "\\x";
    escaped += digits[c >> 4];
    escaped += digits[c & 15];
  }
  return escaped;
}

} // namespace distir

#endif // DISTIR_SUPPORT_CONTROLCHARACTERS_H
