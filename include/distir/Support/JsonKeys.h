//===- JsonKeys.h - Duplicate keys and locations in JSON text ----*- C++
//-*-===//
//
// nlohmann_json, like most JSON readers, resolves a key given twice in one
// object silently (the DOM keeps one of the values). In a cluster, profile
// or layout-map file that hides a typo or a merge accident, so distir's JSON
// readers refuse it. This header is the part their SAX handlers share: which
// keys each open object has, and where in the text a key or an offset is.
// Header-only and exception-free, for the plain libraries and MLIR code.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SUPPORT_JSONKEYS_H
#define DISTIR_SUPPORT_JSONKEYS_H

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace distir {

/// 1-based line and column of byte `offset` of `text`.
inline std::pair<size_t, size_t> jsonLineColumn(std::string_view text,
                                                size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

/// Fed a SAX parser's object and key events in document order, finds the
/// first key that repeats a key of the same object.
class DuplicateJsonKeys {
public:
  explicit DuplicateJsonKeys(std::string_view text) : text(text) {}

  void startObject() { keysOfOpenObjects.emplace_back(); }
  void endObject() {
    if (!keysOfOpenObjects.empty())
      keysOfOpenObjects.pop_back();
  }
  /// False when `name` is already a key of the innermost open object; then
  /// getOffset() is where the repeated key starts and getReason() says why.
  bool addKey(const std::string &name) {
    size_t occurrence = ++occurrences[name];
    if (keysOfOpenObjects.empty() ||
        keysOfOpenObjects.back().insert(name).second)
      return true;
    offset = findKey(name, occurrence);
    reason = "duplicate key \"" + name + "\" in one object";
    return false;
  }
  size_t getOffset() const { return offset; }
  const std::string &getReason() const { return reason; }

private:
  /// The offset of the `occurrence`-th `"name"` followed by a colon (keys
  /// come in document order, and a string followed by a colon is a key);
  /// 0 when the key is spelled with escapes.
  size_t findKey(const std::string &name, size_t occurrence) const {
    std::string quoted = "\"" + name + "\"";
    for (size_t at = text.find(quoted); at != std::string_view::npos;
         at = text.find(quoted, at + 1)) {
      size_t next = text.find_first_not_of(" \t\r\n", at + quoted.size());
      bool isKey = next != std::string_view::npos && text[next] == ':' &&
                   (at == 0 || text[at - 1] != '\\');
      if (isKey && --occurrence == 0)
        return at;
    }
    return 0;
  }

  std::string_view text;
  std::vector<std::set<std::string>> keysOfOpenObjects;
  std::map<std::string, size_t> occurrences;
  size_t offset = 0;
  std::string reason;
};

} // namespace distir

#endif // DISTIR_SUPPORT_JSONKEYS_H
