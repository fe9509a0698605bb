//===- LayoutMap.cpp - regexes over parameter names -> layouts -----------===//
//
// Keras' LayoutMap for distir: an ordered JSON object whose keys are regexes
// over `dist.name` and whose values give, per dimension, the mesh axes that
// split it. Also the annotation step that applies a map to a function's
// parameter-like values, shared with the Megatron layouts.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/IR/Layout.h"
#include "distir/Dialect/Dist/Transforms/Annotation.h"
#include "distir/Dialect/Dist/Transforms/FunctionSharding.h"
#include "distir/Support/JsonKeys.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

// MLIR code builds without exceptions: every parse below is non-throwing.
#include <nlohmann/json.hpp>

#include <optional>

using namespace mlir;
using namespace mlir::dist;
using OrderedJson = nlohmann::ordered_json;

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// Accepts everything and records the first syntax error or repeated key
/// (JsonKeys.h): the DOM parser without exceptions only says that the text
/// is invalid, not where, and keeps one value of a repeated key.
struct ErrorSax : nlohmann::json_sax<OrderedJson> {
  explicit ErrorSax(StringRef text) : duplicates(text) {}
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool start_object(std::size_t) override {
    duplicates.startObject();
    return true;
  }
  bool key(string_t &name) override {
    if (duplicates.addKey(name))
      return true;
    offset = duplicates.getOffset();
    reason = duplicates.getReason();
    return false;
  }
  bool end_object() override {
    duplicates.endObject();
    return true;
  }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    offset = position > 0 ? position - 1 : 0;
    reason = ex.what();
    // Drop "[json.exception.parse_error.101] parse error at line 1, column
    // 2: ": the location is ours.
    size_t colon = reason.find(": ");
    if (colon != std::string::npos)
      reason = reason.substr(colon + 2);
    return false;
  }
  size_t offset = 0;
  std::string reason;
  distir::DuplicateJsonKeys duplicates;
};
} // namespace

/// "<source>:<line>:<col>: invalid JSON: <reason>" for a syntax error or a
/// repeated key of `text`; nothing when it is valid.
static std::optional<std::string> describeJsonError(StringRef text,
                                                    StringRef sourceName) {
  ErrorSax sax(text);
  if (OrderedJson::sax_parse(text.begin(), text.end(), &sax))
    return std::nullopt;
  auto [line, column] = distir::jsonLineColumn(text, sax.offset);
  return (sourceName + ":" + Twine(line) + ":" + Twine(column) +
          ": invalid JSON: " + sax.reason)
      .str();
}

std::vector<std::string> LayoutMap::getRequiredLiterals(StringRef pattern) {
  std::vector<std::string> literals;
  // Alternation or a group (which a quantifier may make optional): no
  // literal is certain; the regex decides alone.
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      ++i;
      continue;
    }
    if (pattern[i] == '|' || pattern[i] == '(')
      return literals;
  }
  std::string run;
  auto endRun = [&] {
    if (!run.empty())
      literals.push_back(std::move(run));
    run.clear();
  };
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    switch (c) {
    case '\\':
      // An escaped punctuation character is itself; an escaped letter or
      // digit may be a class or a back-reference.
      if (i + 1 < pattern.size() && llvm::isPunct(pattern[i + 1]))
        run += pattern[++i];
      else {
        endRun();
        ++i;
      }
      break;
    case '*':
    case '?':
    case '{':
      // The character before may occur zero times: it leaves the run.
      if (!run.empty())
        run.pop_back();
      endRun();
      if (c == '{')
        i = std::min(pattern.size(), pattern.find('}', i));
      break;
    case '+':
      endRun(); // at least once: the run so far is needed, not its repeats
      break;
    case '[': {
      endRun();
      // A bracket expression: one character of a set. Its first ']' (after
      // an optional '^') is a member, not the end.
      size_t j = i + 1;
      if (j < pattern.size() && pattern[j] == '^')
        ++j;
      if (j < pattern.size() && pattern[j] == ']')
        ++j;
      j = pattern.find(']', j);
      if (j == StringRef::npos)
        return {}; // invalid: let the regex report it
      i = j;
      break;
    }
    case '.':
    case '^':
    case '$':
      endRun();
      break;
    default:
      run += c;
    }
  }
  endRun();
  return literals;
}

void LayoutMap::addEntry(std::string pattern,
                         SmallVector<SmallVector<std::string, 1>> dims) {
  auto regex = std::make_shared<llvm::Regex>(pattern);
  std::vector<std::string> literals = getRequiredLiterals(pattern);
  entries.push_back({std::move(pattern), std::move(dims), std::move(regex),
                     std::move(literals)});
}

FailureOr<LayoutMap>
LayoutMap::parse(StringRef text, StringRef sourceName,
                 function_ref<InFlightDiagnostic()> emitError) {
  if (std::optional<std::string> error = describeJsonError(text, sourceName))
    return emitError() << *error;
  OrderedJson document = OrderedJson::parse(text.begin(), text.end(),
                                            /*cb=*/nullptr,
                                            /*allow_exceptions=*/false);
  auto fail = [&](const Twine &message) -> FailureOr<LayoutMap> {
    return emitError() << sourceName << ": " << message.str();
  };
  if (!document.is_object())
    return fail("a layout map is a JSON object {\"regex\": [layout per dim]}");
  LayoutMap map;
  for (const auto &[pattern, layout] : document.items()) {
    std::string regexError;
    if (!llvm::Regex(pattern).isValid(regexError))
      return fail("invalid regex \"" + pattern + "\": " + regexError);
    if (!layout.is_array())
      return fail("layout of \"" + pattern +
                  "\" must be a list with one entry per dimension");
    SmallVector<SmallVector<std::string, 1>> dims;
    for (const OrderedJson &dim : layout) {
      dims.emplace_back();
      if (dim.is_null())
        continue;
      if (dim.is_string()) {
        dims.back().push_back(dim.get<std::string>());
        continue;
      }
      if (!dim.is_array())
        return fail("layout of \"" + pattern +
                    "\": each dimension is null, an axis name or a list of "
                    "axis names");
      for (const OrderedJson &axis : dim) {
        if (!axis.is_string())
          return fail("layout of \"" + pattern + "\": axis names are strings");
        dims.back().push_back(axis.get<std::string>());
      }
    }
    map.addEntry(pattern, std::move(dims));
  }
  return map;
}

FailureOr<LayoutMap>
LayoutMap::load(StringRef path, function_ref<InFlightDiagnostic()> emitError) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return emitError() << path << ": cannot open layout map: "
                       << buffer.getError().message();
  return parse((*buffer)->getBuffer(), path, emitError);
}

const LayoutMap::Entry *LayoutMap::lookup(StringRef name) const {
  // Running the regex on every parameter, gradient and optimizer-state name
  // of a large step was ~9 % of dist-search's CPU (perf, GPT-3 175B); most
  // names lack a literal the pattern needs.
  for (const Entry &entry : entries)
    if (llvm::all_of(entry.requiredLiterals,
                     [&](const std::string &s) { return name.contains(s); }) &&
        entry.regex->match(name))
      return &entry;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Applying a map
//===----------------------------------------------------------------------===//

static bool isParameterLike(Role role) {
  return llvm::is_contained({Role::Parameter, Role::OptimizerState,
                             Role::UpdatedParameter,
                             Role::UpdatedOptimizerState, Role::Gradient},
                            role);
}

/// `layout` with the axes of `entry` added (each after the axes already
/// splitting that dim), checked against `type`.
static FailureOr<Layout> addEntryAxes(Operation *at, const Twine &what,
                                      const LayoutMap::Entry &entry,
                                      Layout layout, RankedTensorType type,
                                      const Mesh &mesh, StringRef meshName) {
  if ((int64_t)entry.dims.size() != type.getRank())
    return at->emitError() << what << ": layout of \"" << entry.pattern
                           << "\" has " << entry.dims.size()
                           << " dimensions but the value has rank "
                           << type.getRank();
  for (auto [dim, axes] : llvm::enumerate(entry.dims)) {
    for (const std::string &name : axes) {
      int64_t axis = *mesh.getAxisIndex(name);
      if (layout.usesAxis(axis))
        return at->emitError() << what << ": mesh axis \"" << name
                               << "\" already lays out this value";
      layout.dims[dim].push_back(axis);
    }
    int64_t shards = layout.getShards(dim, mesh);
    int64_t size = type.getDimSize(dim);
    if (ShapedType::isDynamic(size) || size % shards != 0)
      return at->emitError()
             << what << ": \"" << entry.pattern << "\" splits dimension " << dim
             << " of size " << size << " into " << shards
             << " shards, which does not divide it";
  }
  return layout;
}

LogicalResult mlir::dist::annotateWithLayoutMap(func::FuncOp func,
                                                MeshOp meshOp,
                                                const LayoutMap &map) {
  Mesh mesh = Mesh::fromOp(meshOp);
  StringRef meshName = meshOp.getSymName();
  // Every entry must fit the mesh, used or not: a typo must not pass.
  for (const LayoutMap::Entry &entry : map.getEntries())
    for (const auto &axes : entry.dims)
      for (const std::string &axis : axes)
        if (!mesh.getAxisIndex(axis))
          return func.emitError()
                 << "layout map entry \"" << entry.pattern << "\" names axis \""
                 << axis << "\" but mesh @" << meshName << " has axes ["
                 << llvm::join(mesh.getAxes(), ", ") << "]";
  MLIRContext *ctx = func.getContext();
  auto annotate = [&](Operation *at, const Twine &what, Type type,
                      DictionaryAttr attrs,
                      function_ref<void(ShardingAttr)> set) -> LogicalResult {
    std::optional<Role> role = getRole(attrs);
    auto name = attrs ? attrs.getAs<StringAttr>(DistDialect::kNameAttrName)
                      : StringAttr();
    // Without roles (a hand-written forward program), every named value.
    if (!name || (role && !isParameterLike(*role)))
      return success();
    auto tensor = cast<RankedTensorType>(type);
    Layout layout = Layout::replicated(tensor.getRank());
    if (auto existing =
            attrs.getAs<ShardingAttr>(DistDialect::kShardingAttrName)) {
      FailureOr<Layout> resolved = getLayout(
          existing, mesh, [&] { return at->emitError() << what << ": "; });
      if (failed(resolved))
        return failure();
      layout = *resolved;
    }
    if (const LayoutMap::Entry *entry = map.lookup(name.getValue())) {
      FailureOr<Layout> added =
          addEntryAxes(at, what + " (" + name.getValue() + ")", *entry, layout,
                       tensor, mesh, meshName);
      if (failed(added))
        return failure();
      layout = *added;
    }
    set(getShardingAttr(ctx, meshName, mesh, layout));
    return success();
  };
  SmallVector<ShardingAttr> argShardings(func.getNumArguments());
  SmallVector<ShardingAttr> resultShardings(func.getNumResults());
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (failed(annotate(func, "argument " + Twine(i),
                        func.getArgumentTypes()[i], func.getArgAttrDict(i),
                        [&](ShardingAttr s) { argShardings[i] = s; })))
      return failure();
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (failed(annotate(func, "result " + Twine(i), func.getResultTypes()[i],
                        func.getResultAttrDict(i),
                        [&](ShardingAttr s) { resultShardings[i] = s; })))
      return failure();
  setSignatureShardings(func, argShardings, resultShardings);
  func->setAttr(DistDialect::kMeshAttrName, FlatSymbolRefAttr::get(meshOp));
  return success();
}
