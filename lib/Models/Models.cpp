//===- Models.cpp - forward programs of MLP and GPT models ----------------===//
//
// The generators declare every argument first (so that parameters come
// before data, as the training-step convention wants), then emit the body in
// program order. A builder listener stamps `dist.layer` on each op as it is
// inserted, so the layer hint cannot be forgotten on any op.
//
//===----------------------------------------------------------------------===//

#include "distir/Models/Models.h"
#include "distir/Dialect/Dist/IR/Dist.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dist;
using namespace distir::models;

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

namespace {

/// The most layers a generated model may have (docs/dist-gen.md): about 680
/// times GPT-3's 96, and still a program the builder makes in bounded time
/// and memory.
constexpr int64_t kMaxLayers = 65536;

/// Accumulates the first problem found in a configuration.
class ConfigChecker {
public:
  void requirePositive(llvm::StringRef option, int64_t value) {
    if (!problem && value <= 0)
      problem = "--" + option.str() + " must be a positive integer, got " +
                std::to_string(value);
  }

  /// Refuses more layers than kMaxLayers before anything is built: the
  /// program has a few ops per layer, and 2^31 layers would grow without
  /// bound (the parameter count alone may still fit int64).
  void requireLayersBound(int64_t layers) {
    if (!problem && layers > kMaxLayers)
      problem = "--layers " + std::to_string(layers) + " is more than " +
                std::to_string(kMaxLayers) + " layers";
  }

  /// The tensor of `shape` (named for the message) must have a byte size
  /// that fits int64 for elements of `elementBytes` bytes.
  void requireFits(llvm::StringRef what, llvm::ArrayRef<int64_t> shape,
                   int64_t elementBytes) {
    if (problem)
      return;
    int64_t bytes = elementBytes;
    for (int64_t dim : shape) {
      if (llvm::MulOverflow(bytes, dim, bytes)) {
        problem =
            "the " + what.str() + " tensor [" +
            llvm::join(llvm::map_range(
                           shape, [](int64_t d) { return std::to_string(d); }),
                       ", ") +
            "] has more bytes than 64-bit arithmetic can count";
        return;
      }
    }
  }

  void require(bool condition, const std::string &message) {
    if (!problem && !condition)
      problem = message;
  }

  std::optional<std::string> problem;
};

/// Bytes of one element of a supported dtype, or 0 if unsupported.
int64_t getDtypeBytes(llvm::StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Case("f64", 8)
      .Case("f32", 4)
      .Cases({"f16", "bf16"}, 2)
      .Default(0);
}

void checkDtype(ConfigChecker &checker, llvm::StringRef dtype) {
  checker.require(getDtypeBytes(dtype) != 0,
                  "--dtype must be f64, f32, f16 or bf16, got '" + dtype.str() +
                      "'");
}

/// Overflow-checked a * b + c for parameter counts; nullopt on overflow.
std::optional<int64_t> mulAdd(std::optional<int64_t> a,
                              std::optional<int64_t> b,
                              std::optional<int64_t> c) {
  int64_t product, sum;
  if (!a || !b || !c || llvm::MulOverflow(*a, *b, product) ||
      llvm::AddOverflow(product, *c, sum))
    return std::nullopt;
  return sum;
}

/// Parameter counts in overflow-checked arithmetic: nullopt if the count
/// does not fit int64.
std::optional<int64_t> countMlpParameters(const MlpConfig &c) {
  std::optional<int64_t> square = mulAdd(c.hidden, c.hidden, 0);
  return mulAdd(c.getInputDim(), c.hidden, mulAdd(c.layers - 1, square, 0));
}

std::optional<int64_t> countGptParameters(const GptConfig &c) {
  // Per layer: two layer norms (2H each), qkv (3H^2 + 3H), proj (H^2 + H),
  // fc1 (4H^2 + 4H), fc2 (4H^2 + H): 12 H^2 + 13 H.
  std::optional<int64_t> perLayer =
      mulAdd(mulAdd(12, c.hidden, 0), c.hidden, mulAdd(13, c.hidden, 0));
  // Plus the final norm (2H), the token embedding [V, H], the LM head [H, V]
  // unless it is the embedding, and the position embedding [S, H].
  std::optional<int64_t> total =
      mulAdd(c.layers, perLayer, mulAdd(2, c.hidden, 0));
  total = mulAdd(mulAdd(c.tieEmbeddings ? 1 : 2, c.vocab, 0), c.hidden, total);
  return mulAdd(c.seq, c.hidden, total);
}

} // namespace

std::optional<std::string> distir::models::verifyConfig(const MlpConfig &c) {
  ConfigChecker checker;
  checker.requirePositive("layers", c.layers);
  checker.requireLayersBound(c.layers);
  checker.requirePositive("hidden", c.hidden);
  checker.requirePositive("batch", c.batch);
  checker.require(c.inputDim >= 0,
                  "--input-dim must be a positive integer, got " +
                      std::to_string(c.inputDim));
  checkDtype(checker, c.dtype);
  if (checker.problem)
    return checker.problem;
  int64_t bytes = getDtypeBytes(c.dtype);
  checker.requireFits("input", {c.batch, c.getInputDim()}, bytes);
  checker.requireFits("weight", {c.getInputDim(), c.hidden}, bytes);
  checker.requireFits("weight", {c.hidden, c.hidden}, bytes);
  checker.requireFits("activation", {c.batch, c.hidden}, bytes);
  if (!checker.problem) {
    std::optional<int64_t> params = countMlpParameters(c);
    checker.require(params && !llvm::MulOverflow(*params, bytes, *params),
                    "the model has more parameter bytes than 64-bit "
                    "arithmetic can count");
  }
  return checker.problem;
}

std::optional<std::string> distir::models::verifyConfig(const GptConfig &c) {
  ConfigChecker checker;
  checker.requirePositive("layers", c.layers);
  checker.requireLayersBound(c.layers);
  checker.requirePositive("hidden", c.hidden);
  checker.requirePositive("heads", c.heads);
  checker.requirePositive("seq", c.seq);
  checker.requirePositive("vocab", c.vocab);
  checker.requirePositive("batch", c.batch);
  checkDtype(checker, c.dtype);
  if (checker.problem)
    return checker.problem;
  checker.require(c.hidden % c.heads == 0,
                  "--heads " + std::to_string(c.heads) +
                      " does not divide --hidden " + std::to_string(c.hidden));
  checker.require(c.dropout >= 0.0 && c.dropout < 1.0,
                  "--dropout " + llvm::formatv("{0}", c.dropout).str() +
                      " is not a probability in [0, 1)");
  int64_t bytes = getDtypeBytes(c.dtype);
  // The largest tensors of the program; all others are no larger than one
  // of these (4H and 3H columns are checked through fc1's 4H).
  checker.requireFits("MLP activation", {c.batch, c.seq, 4, c.hidden}, bytes);
  checker.requireFits("logits", {c.batch, c.seq, c.vocab}, bytes);
  checker.requireFits("attention scores", {c.batch, c.heads, c.seq, c.seq},
                      bytes);
  checker.requireFits("MLP weight", {c.hidden, 4, c.hidden}, bytes);
  checker.requireFits("embedding", {c.vocab, c.hidden}, bytes);
  checker.requireFits("position embedding", {c.seq, c.hidden}, bytes);
  checker.requireFits("tokens", {c.batch, c.seq}, 8);
  if (!checker.problem) {
    std::optional<int64_t> params = countGptParameters(c);
    checker.require(params && !llvm::MulOverflow(*params, bytes, *params),
                    "the model has more parameter bytes than 64-bit "
                    "arithmetic can count");
  }
  return checker.problem;
}

int64_t distir::models::getNumParameters(const MlpConfig &config) {
  return countMlpParameters(config).value_or(-1);
}

int64_t distir::models::getNumParameters(const GptConfig &config) {
  return countGptParameters(config).value_or(-1);
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

namespace {

/// Stamps `dist.layer = layer` on every op the builder inserts, and
/// `dist.no_recompute` on those outside the recomputable layers.
struct LayerStamp : public OpBuilder::Listener {
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    op->setAttr(DistDialect::kLayerAttrName, layerAttr);
    if (outsideLayers)
      op->setAttr(DistDialect::kNoRecomputeAttrName,
                  UnitAttr::get(op->getContext()));
  }
  IntegerAttr layerAttr;
  bool outsideLayers = false;
};

/// Declares the arguments of a forward function, then builds its body.
class ForwardBuilder {
public:
  ForwardBuilder(ModuleOp module, Type elementType)
      : builder(module.getContext()), elementType(elementType) {
    builder.setInsertionPointToEnd(module.getBody());
  }

  /// Declares an argument; returns its index.
  unsigned declare(llvm::StringRef name, Role role, ArrayRef<int64_t> shape,
                   Type type = {},
                   std::optional<int64_t> bound = std::nullopt) {
    MLIRContext *ctx = builder.getContext();
    argTypes.push_back(RankedTensorType::get(shape, type ? type : elementType));
    SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr(DistDialect::kNameAttrName,
                             builder.getStringAttr(name)),
        getRoleNamedAttr(ctx, role)};
    if (bound)
      attrs.push_back(builder.getNamedAttr(
          DistDialect::kBoundAttrName,
          IntegerAttr::get(IntegerType::get(ctx, 64), *bound)));
    argAttrs.push_back(DictionaryAttr::get(ctx, attrs));
    return argTypes.size() - 1;
  }

  unsigned parameter(llvm::StringRef name, ArrayRef<int64_t> shape) {
    return declare(name, Role::Parameter, shape);
  }

  /// Creates the function with a scalar loss result and an entry block, and
  /// starts stamping ops with layer 0.
  func::FuncOp begin(llvm::StringRef name, Location loc) {
    MLIRContext *ctx = builder.getContext();
    Type loss = RankedTensorType::get({}, elementType);
    func = func::FuncOp::create(builder, loc, name,
                                FunctionType::get(ctx, argTypes, loss));
    func.setAllArgAttrs(argAttrs);
    func.setResultAttrs(
        0, DictionaryAttr::get(
               ctx, {builder.getNamedAttr(DistDialect::kNameAttrName,
                                          builder.getStringAttr("loss")),
                     getRoleNamedAttr(ctx, Role::Loss)}));
    Block *entry = func.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    builder.setListener(&stamp);
    setLayer(0);
    return func;
  }

  void setLayer(int64_t layer) {
    stamp.layerAttr =
        IntegerAttr::get(IntegerType::get(builder.getContext(), 64), layer);
  }

  /// Whether the next ops are outside the model's recomputable layers (the
  /// embedding, final norm, head and loss, which Megatron-LM's activation
  /// checkpointing leaves out).
  void setOutsideLayers(bool outside) { stamp.outsideLayers = outside; }

  Value arg(unsigned index) { return func.getArgument(index); }

  void finish(Value loss) {
    builder.setListener(nullptr);
    func::ReturnOp::create(builder, func.getLoc(), loss);
  }

  OpBuilder builder;
  Type elementType;

private:
  SmallVector<Type> argTypes;
  SmallVector<DictionaryAttr> argAttrs;
  func::FuncOp func;
  LayerStamp stamp;
};

Type parseDtype(MLIRContext *ctx, llvm::StringRef dtype) {
  return llvm::StringSwitch<Type>(dtype)
      .Case("f64", Float64Type::get(ctx))
      .Case("f32", Float32Type::get(ctx))
      .Case("f16", Float16Type::get(ctx))
      .Case("bf16", BFloat16Type::get(ctx))
      .Default(Type());
}

/// Location `name` (e.g. "layers.3.attn") so that diagnostics and traces
/// name the block an op belongs to.
Location nameLoc(MLIRContext *ctx, const llvm::Twine &name) {
  return NameLoc::get(StringAttr::get(ctx, name));
}

} // namespace

FailureOr<func::FuncOp> distir::models::buildMlp(ModuleOp module,
                                                 const MlpConfig &config) {
  if (std::optional<std::string> problem = verifyConfig(config))
    return module.emitError("cannot build MLP: ") << *problem;
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<DistDialect>();
  ctx->getOrLoadDialect<func::FuncDialect>();
  ForwardBuilder fb(module, parseDtype(ctx, config.dtype));

  const int64_t l = config.layers, h = config.hidden, b = config.batch,
                d = config.getInputDim();
  SmallVector<unsigned> weights;
  for (int64_t i = 0; i < l; ++i)
    weights.push_back(fb.parameter("layers." + std::to_string(i) + ".weight",
                                   {i == 0 ? d : h, h}));
  unsigned input = fb.declare("input", Role::Data, {b, d});
  unsigned target = fb.declare("target", Role::Data, {b, h});

  func::FuncOp func =
      fb.begin(config.functionName, nameLoc(ctx, config.functionName));
  OpBuilder &builder = fb.builder;
  Value x = fb.arg(input);
  for (int64_t i = 0; i < l; ++i) {
    fb.setLayer(i);
    Location loc = nameLoc(ctx, "layers." + llvm::Twine(i));
    x = MatmulOp::create(builder, loc, x, fb.arg(weights[i]));
    x = ReluOp::create(builder, loc, x);
  }
  Value loss =
      MseLossOp::create(builder, nameLoc(ctx, "loss"), x, fb.arg(target));
  fb.finish(loss);
  return func;
}

namespace {
/// The dropouts of a GPT (ids in program order: each draws its own masks)
/// and the attention core of its layers.
struct GptCoreBuilder {
  GptCoreBuilder(OpBuilder &builder, const GptConfig &config, double scale)
      : builder(builder), config(config), scale(scale) {}

  Value dropout(Location loc, Value x) {
    if (config.dropout == 0.0)
      return x;
    return DropoutTrainOp::create(builder, loc, x, /*blocks=*/ValueRange(),
                                  builder.getF64FloatAttr(config.dropout),
                                  builder.getI64IntegerAttr(nextDropoutId++),
                                  /*seed=*/builder.getI64IntegerAttr(0),
                                  /*reference_shape=*/nullptr,
                                  /*reference_offset=*/nullptr)
        .getResult();
  }

  /// dropout(softmax(scale * q k^T, causal)) v.
  Value attention(Location loc, Value q, Value k, Value v) {
    if (config.fusedAttention) {
      // One op whose dropout draws the unfused chain's masks: the same id,
      // the probabilities as reference tensor.
      bool dropped = config.dropout != 0.0;
      return AttentionOp::create(
                 builder, loc, q, k, v, /*blocks=*/ValueRange(), scale,
                 /*causal=*/true, llvm::APFloat(dropped ? config.dropout : 0.0),
                 dropped ? nextDropoutId++ : 0, /*seed=*/0,
                 /*reference_shape=*/nullptr, /*reference_offset=*/nullptr)
          .getResult();
    }
    Value scores = MatmulOp::create(builder, loc, q, k, /*transpose_a=*/false,
                                    /*transpose_b=*/true);
    Value probs = SoftmaxOp::create(builder, loc, scores, /*axis=*/-1, scale,
                                    /*causal=*/true);
    return MatmulOp::create(builder, loc, dropout(loc, probs), v).getResult();
  }

private:
  OpBuilder &builder;
  const GptConfig &config;
  llvm::APFloat scale;
  int64_t nextDropoutId = 0;
};
} // namespace

FailureOr<func::FuncOp> distir::models::buildGpt(ModuleOp module,
                                                 const GptConfig &config) {
  if (std::optional<std::string> problem = verifyConfig(config))
    return module.emitError("cannot build GPT: ") << *problem;
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<DistDialect>();
  ctx->getOrLoadDialect<func::FuncDialect>();
  ForwardBuilder fb(module, parseDtype(ctx, config.dtype));

  const int64_t l = config.layers, h = config.hidden, a = config.heads,
                s = config.seq, v = config.vocab, b = config.batch;
  const int64_t headDim = h / a;

  struct LayerParams {
    unsigned ln1Weight, ln1Bias, qkvWeight, qkvBias, projWeight, projBias,
        ln2Weight, ln2Bias, fc1Weight, fc1Bias, fc2Weight, fc2Bias;
  };
  unsigned tokenEmbedding = fb.parameter("embed.tokens.weight", {v, h});
  unsigned positionEmbedding = fb.parameter("embed.positions.weight", {s, h});
  SmallVector<LayerParams> layers;
  for (int64_t i = 0; i < l; ++i) {
    std::string p = "layers." + std::to_string(i) + ".";
    LayerParams lp;
    lp.ln1Weight = fb.parameter(p + "ln1.weight", {h});
    lp.ln1Bias = fb.parameter(p + "ln1.bias", {h});
    lp.qkvWeight = fb.parameter(p + "attn.qkv.weight", {h, 3 * h});
    lp.qkvBias = fb.parameter(p + "attn.qkv.bias", {3 * h});
    lp.projWeight = fb.parameter(p + "attn.proj.weight", {h, h});
    lp.projBias = fb.parameter(p + "attn.proj.bias", {h});
    lp.ln2Weight = fb.parameter(p + "ln2.weight", {h});
    lp.ln2Bias = fb.parameter(p + "ln2.bias", {h});
    lp.fc1Weight = fb.parameter(p + "mlp.fc1.weight", {h, 4 * h});
    lp.fc1Bias = fb.parameter(p + "mlp.fc1.bias", {4 * h});
    lp.fc2Weight = fb.parameter(p + "mlp.fc2.weight", {4 * h, h});
    lp.fc2Bias = fb.parameter(p + "mlp.fc2.bias", {h});
    layers.push_back(lp);
  }
  unsigned finalLnWeight = fb.parameter("final_ln.weight", {h});
  unsigned finalLnBias = fb.parameter("final_ln.bias", {h});
  std::optional<unsigned> lmHead;
  if (!config.tieEmbeddings)
    lmHead = fb.parameter("lm_head.weight", {h, v});
  Type i64 = IntegerType::get(ctx, 64);
  unsigned tokens = fb.declare("tokens", Role::Data, {b, s}, i64, v);
  unsigned labels = fb.declare("labels", Role::Data, {b, s}, i64, v);

  func::FuncOp func =
      fb.begin(config.functionName, nameLoc(ctx, config.functionName));
  OpBuilder &builder = fb.builder;
  // GPT-2's layer norm epsilon.
  const llvm::APFloat lnEpsilon(1e-5);
  auto layerNorm = [&](Location loc, Value x, unsigned weight, unsigned bias) {
    return LayerNormOp::create(builder, loc, x, fb.arg(weight), fb.arg(bias),
                               /*axis=*/-1, lnEpsilon)
        .getResult();
  };
  auto linear = [&](Location loc, Value x, unsigned weight, unsigned bias) {
    Value y = MatmulOp::create(builder, loc, x, fb.arg(weight));
    return AddOp::create(builder, loc, y, fb.arg(bias)).getResult();
  };

  GptCoreBuilder core(builder, config,
                      1.0 / std::sqrt(static_cast<double>(headDim)));
  auto dropout = [&](Location loc, Value x) { return core.dropout(loc, x); };

  // Embedding: layer 0, not recomputed.
  fb.setOutsideLayers(true);
  Location embedLoc = nameLoc(ctx, "embed");
  Value x =
      TakeOp::create(builder, embedLoc, fb.arg(tokenEmbedding), fb.arg(tokens),
                     /*axis=*/0);
  x = AddOp::create(builder, embedLoc, x, fb.arg(positionEmbedding));
  x = dropout(embedLoc, x);
  fb.setOutsideLayers(false);

  for (int64_t i = 0; i < l; ++i) {
    fb.setLayer(i);
    const LayerParams &lp = layers[i];
    std::string p = "layers." + std::to_string(i) + ".";
    Location attnLoc = nameLoc(ctx, p + "attn");
    Value hIn = layerNorm(nameLoc(ctx, p + "ln1"), x, lp.ln1Weight, lp.ln1Bias);
    // Columns of qkv are ordered (head, q/k/v, d) so that a tensor-parallel
    // split of the columns into contiguous blocks splits whole heads.
    Value qkv = linear(attnLoc, hIn, lp.qkvWeight, lp.qkvBias);
    qkv = ReshapeOp::create(builder, attnLoc, qkv,
                            ArrayRef<int64_t>{b, s, a, 3, headDim});
    auto parts = SplitOp::create(builder, attnLoc, qkv, /*axis=*/3,
                                 ArrayRef<int64_t>{1, 1, 1});
    SmallVector<Value, 3> qkvHeads;
    for (Value part : parts.getResults()) {
      Value headMajor = ReshapeOp::create(builder, attnLoc, part,
                                          ArrayRef<int64_t>{b, s, a, headDim});
      qkvHeads.push_back(TransposeOp::create(builder, attnLoc, headMajor,
                                             ArrayRef<int64_t>{0, 2, 1, 3}));
    }
    Value context =
        core.attention(attnLoc, qkvHeads[0], qkvHeads[1], qkvHeads[2]);
    context = TransposeOp::create(builder, attnLoc, context,
                                  ArrayRef<int64_t>{0, 2, 1, 3});
    context = ReshapeOp::create(builder, attnLoc, context,
                                ArrayRef<int64_t>{b, s, h});
    Value attn = linear(attnLoc, context, lp.projWeight, lp.projBias);
    x = AddOp::create(builder, attnLoc, x, dropout(attnLoc, attn));

    Location mlpLoc = nameLoc(ctx, p + "mlp");
    Value h2 = layerNorm(nameLoc(ctx, p + "ln2"), x, lp.ln2Weight, lp.ln2Bias);
    Value f = linear(mlpLoc, h2, lp.fc1Weight, lp.fc1Bias);
    f = GeluOp::create(builder, mlpLoc, f, GeluApproximation::tanh);
    f = linear(mlpLoc, f, lp.fc2Weight, lp.fc2Bias);
    x = AddOp::create(builder, mlpLoc, x, dropout(mlpLoc, f));
  }

  // Final norm, head and loss stay in the last layer (see docs/dist-gen.md)
  // and are not recomputed.
  fb.setLayer(l - 1);
  fb.setOutsideLayers(true);
  x = layerNorm(nameLoc(ctx, "final_ln"), x, finalLnWeight, finalLnBias);
  Location headLoc = nameLoc(ctx, "lm_head");
  // Tied, the head reads the word embedding [V, H] transposed.
  Value logits =
      lmHead ? MatmulOp::create(builder, headLoc, x, fb.arg(*lmHead))
             : MatmulOp::create(builder, headLoc, x, fb.arg(tokenEmbedding),
                                /*transpose_a=*/false, /*transpose_b=*/true);
  Value loss = CrossEntropyOp::create(builder, nameLoc(ctx, "loss"), logits,
                                      fb.arg(labels), /*weights=*/Value(),
                                      /*class_axis=*/-1, LossReduction::mean,
                                      /*ignore_index=*/IntegerAttr());
  fb.finish(loss);
  return func;
}
