//===- Autodiff.cpp - forward function to training step -------------------===//
//
// Reverse-mode automatic differentiation over the dist dialect. The pass
// walks the forward ops backwards from the loss, asks each op for its
// vector-Jacobian product (GradientOpInterface::buildGradient, one rule per op
// in GradientInterfaceImpl.cpp), sums the gradients of values used
// more than once, then appends the optimizer update and rewrites the
// signature into the training-step convention of docs/autodiff.md.
//
//===----------------------------------------------------------------------===//

#include "distir/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::dist {
#define GEN_PASS_DEF_DISTAUTODIFF
#include "distir/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace mlir::dist

using namespace mlir;
using namespace mlir::dist;

namespace {

constexpr llvm::StringLiteral kRoleAttrName =
    ::mlir::dist::DistDialect::kRoleAttrName;
constexpr llvm::StringLiteral kPhaseAttrName =
    ::mlir::dist::DistDialect::kPhaseAttrName;

struct TrainingOptions {
  Optimizer optimizer = Optimizer::Sgd;
  double learningRate = 0.01;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  /// As asked; `run` resolves `auto` from the parameters' types.
  Precision precision = Precision::Auto;
  GradientPrecision grads = GradientPrecision::Auto;
  /// Global-norm clipping threshold (0: none) and static loss scale.
  double clipGrad = 1.0, lossScale = 1.0;
};

/// Megatron-LM's clip_grad_norm adds this to the norm before dividing.
constexpr double kClipNormEpsilon = 1e-6;

bool isHalfPrecision(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// `type` (a ranked tensor) with f32 elements, placement kept.
RankedTensorType getF32Like(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(),
                               Float32Type::get(type.getContext()),
                               tensor.getEncoding());
}

/// Stamps `dist.phase` and, when known, `dist.layer` on every op the builder
/// inserts, so that no backward or optimizer op can miss them.
struct PhaseStamp : public OpBuilder::Listener {
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    op->setAttr(kPhaseAttrName, phase);
    if (layer)
      op->setAttr(DistDialect::kLayerAttrName, layer);
    created.push_back(op);
  }
  StringAttr phase;
  IntegerAttr layer;
  /// Every op inserted, in insertion order (for dead-code removal).
  SmallVector<Operation *> created;
};

bool isFloatTensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && isa<FloatType>(type.getElementType());
}

/// A splat constant of `like`'s type (shape, element type and placement).
Value splatLike(OpBuilder &builder, Location loc, Value like, double value) {
  auto type = cast<RankedTensorType>(like.getType());
  auto valueType =
      RankedTensorType::get(type.getShape(), type.getElementType());
  return ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(
          valueType, builder.getFloatAttr(type.getElementType(), value)),
      getPlacement(type));
}

/// Builds the training step of one function.
class TrainingStepBuilder {
public:
  TrainingStepBuilder(func::FuncOp func, const TrainingOptions &options)
      : func(func), options(options), builder(func.getContext()) {}

  LogicalResult run();

private:
  LogicalResult findLossAndParameters();
  /// Turns `auto` precision choices into the ones the parameters call for
  /// and checks explicit ones.
  LogicalResult resolvePrecision();
  bool isMixed() const { return options.precision == Precision::Mixed; }
  LogicalResult differentiate();
  void removeDeadBackwardOps();
  /// The new signature: parameters, optimizer state, other arguments; loss,
  /// updated parameters (or gradients), updated state, other results.
  LogicalResult rewriteSignature();

  /// What the rewrite needs of each parameter, read before the old block
  /// (and its arguments) goes away.
  struct ParameterInfo {
    unsigned oldIndex;
    std::string name;
    Type type;
    Location loc;
    Value grad;
    /// The parameter's sharding, for its state, update and gradient.
    DictionaryAttr layout;
  };
  /// The arguments of the training step and where the old ones went.
  struct NewArguments {
    SmallVector<Type> types;
    SmallVector<DictionaryAttr> attrs;
    SmallVector<Location> locs;
    SmallVector<int64_t> newIndexOfOld;
    /// The optimizer state arguments: [stateBegin, stateEnd).
    unsigned stateBegin = 0, stateEnd = 0;
  };
  SmallVector<ParameterInfo> collectParameterInfos();
  FailureOr<NewArguments> buildArguments(ArrayRef<ParameterInfo> infos);
  /// Moves the body into a block with the new arguments.
  Block *moveBodyToNewArguments(const NewArguments &args);
  /// The optimizer's updates (or the gradients) and their result attributes,
  /// appended to `results` and `attrs` at the builder's insertion point.
  void buildUpdates(ArrayRef<ParameterInfo> infos, const NewArguments &args,
                    Block *newBody, SmallVectorImpl<Value> &results,
                    SmallVectorImpl<DictionaryAttr> &attrs);
  /// The mixed-precision Adam step: fp32 main gradients, the global norm,
  /// unscale and clip, Adam on the fp32 master weights, copy back, and with
  /// a loss scale the overflow check that keeps the old values.
  void buildMixedAdamUpdates(ArrayRef<ParameterInfo> infos,
                             const NewArguments &args, Block *newBody,
                             SmallVectorImpl<Value> &results,
                             SmallVectorImpl<Value> &newState);
  /// The scalar every main gradient is multiplied by (1/loss scale, times
  /// the clip coefficient min(1, clip / (norm + 1e-6))), or null when it
  /// is 1; `sumOfSquares` is the global sum of the scaled gradients' squares.
  Value buildGradientFactor(Location loc, Value sumOfSquares);
  /// Optimizer state arguments per parameter (adam: m and v; mixed: also
  /// the master weights).
  unsigned getStatePerParameter() const {
    if (options.optimizer != Optimizer::Adam)
      return 0;
    return isMixed() ? 3 : 2;
  }
  /// `base` with `dist.name` and `dist.role` set.
  DictionaryAttr getNamedAttrs(StringRef name, Role role,
                               DictionaryAttr base = {});
  /// The smallest layer hint among the forward users of `value`, if any.
  IntegerAttr getFirstLayer(Value value);

  func::FuncOp func;
  TrainingOptions options;
  OpBuilder builder;
  PhaseStamp stamp;

  unsigned lossIndex = 0;
  Value loss;
  SmallVector<BlockArgument> parameters;
  DenseMap<Value, Value> gradients;
  /// Mixed precision with a loss scale: true (i1) when the global sum of
  /// squares overflowed, so the step keeps the old values.
  Value overflow;
};

LogicalResult TrainingStepBuilder::findLossAndParameters() {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return func.emitOpError(
        "must have a body of one block to be differentiated");
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());

  // The loss: the result marked as such, or the only result.
  std::optional<unsigned> found;
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    if (getResultRole(func, i) != Role::Loss)
      continue;
    if (found)
      return func.emitOpError("has several results with dist.role = \"loss\" "
                              "(results ")
             << *found << " and " << i << ")";
    found = i;
  }
  if (!found && func.getNumResults() == 1)
    found = 0;
  if (!found)
    return func.emitOpError("has no loss to differentiate: mark one result "
                            "with ")
           << DistDialect::kRoleAttrName << " = \"" << stringifyRole(Role::Loss)
           << "\"";
  lossIndex = *found;
  loss = ret.getOperand(lossIndex);
  auto lossType = dyn_cast<RankedTensorType>(loss.getType());
  if (!lossType || !isa<FloatType>(lossType.getElementType()) ||
      !lossType.hasStaticShape() || lossType.getNumElements() != 1)
    return emitError(loss.getLoc())
           << "the loss must be a floating-point scalar, got "
           << loss.getType();

  for (BlockArgument arg : func.getArguments()) {
    std::optional<Role> role = getArgRole(func, arg.getArgNumber());
    if (role == Role::OptimizerState)
      return func.emitOpError("is already a training step (argument ")
             << arg.getArgNumber() << " is optimizer state)";
    if (role != Role::Parameter)
      continue;
    if (!isFloatTensor(arg))
      return func.emitOpError("parameter argument ")
             << arg.getArgNumber() << " must be a floating-point tensor, got "
             << arg.getType();
    parameters.push_back(arg);
  }
  if (parameters.empty())
    return func.emitOpError("has no argument with dist.role = \"parameter\": "
                            "nothing to train");
  // Gradient rules build ops whose shapes come from their operands' types
  // (reshapes back, spread reductions, zero fills): they need static shapes.
  for (BlockArgument arg : func.getArguments())
    if (auto type = dyn_cast<RankedTensorType>(arg.getType());
        type && !type.hasStaticShape())
      return func.emitOpError("argument ")
             << arg.getArgNumber() << " has the dynamic shape " << type
             << ": dist-autodiff needs static shapes (give the inputs static "
                "shapes and run dist-infer-shapes first)";
  WalkResult walk = func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && !tensor.hasStaticShape()) {
        op->emitOpError("result has the dynamic shape ")
            << tensor
            << ": dist-autodiff needs static shapes (run dist-infer-shapes "
               "first)";
        return WalkResult::interrupt();
      }
    if (std::optional<Phase> phase = getPhase(op))
      if (*phase != Phase::Forward) {
        op->emitOpError("is already in the \"")
            << stringifyPhase(*phase)
            << "\" phase: the function is already a training step";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult TrainingStepBuilder::resolvePrecision() {
  bool allHalf = llvm::all_of(parameters, [](BlockArgument parameter) {
    return isHalfPrecision(parameter.getType());
  });
  if (options.precision == Precision::Auto)
    options.precision = options.optimizer == Optimizer::Adam && allHalf
                            ? Precision::Mixed
                            : Precision::Model;
  if (!isMixed()) {
    if (options.grads == GradientPrecision::F32)
      return func.emitOpError("grads=fp32 needs precision=mixed");
    options.grads = GradientPrecision::Model;
    return success();
  }
  if (options.optimizer != Optimizer::Adam)
    return func.emitOpError("precision=mixed needs optimizer=adam");
  if (!allHalf)
    return func.emitOpError("precision=mixed needs f16 or bf16 parameters");
  if (options.grads == GradientPrecision::Auto)
    options.grads = getElementTypeOrSelf(parameters.front().getType()).isBF16()
                        ? GradientPrecision::F32
                        : GradientPrecision::Model;
  return success();
}

IntegerAttr TrainingStepBuilder::getFirstLayer(Value value) {
  IntegerAttr first;
  for (Operation *user : value.getUsers()) {
    auto layer = user->getAttrOfType<IntegerAttr>(DistDialect::kLayerAttrName);
    if (layer && (!first || layer.getInt() < first.getInt()))
      first = layer;
  }
  return first;
}

LogicalResult TrainingStepBuilder::differentiate() {
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();
  MLIRContext *ctx = func.getContext();

  // Activity: only values that depend on a parameter carry gradients.
  llvm::DenseSet<Value> active(parameters.begin(), parameters.end());
  for (Operation &op : body.without_terminator()) {
    setPhase(&op, Phase::Forward);
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return active.contains(v); }))
      for (Value result : op.getResults())
        if (isFloatTensor(result))
          active.insert(result);
  }

  builder.setInsertionPoint(terminator);
  builder.setListener(&stamp);
  stamp.phase = getPhaseAttr(ctx, Phase::Backward);
  if (Operation *lossOp = loss.getDefiningOp())
    stamp.layer =
        lossOp->getAttrOfType<IntegerAttr>(DistDialect::kLayerAttrName);
  // Mixed precision scales the loss (static loss scaling) so that small
  // f16 gradients do not flush to zero; the optimizer divides it out.
  gradients[loss] = splatLike(builder, loss.getLoc(), loss,
                              isMixed() ? options.lossScale : 1.0);

  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(&op);
  for (Operation *op : llvm::reverse(forward)) {
    SmallVector<Value> resultGradients;
    bool anyGradient = false;
    for (Value result : op->getResults()) {
      resultGradients.push_back(gradients.lookup(result));
      anyGradient |= bool(resultGradients.back());
    }
    if (!anyGradient || llvm::none_of(op->getOperands(), [&](Value v) {
          return active.contains(v);
        }))
      continue;

    stamp.layer = op->getAttrOfType<IntegerAttr>(DistDialect::kLayerAttrName);
    SmallVector<Value> operandGradients;
    if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
      // The gradient of a constrained value is laid out the same way.
      operandGradients.push_back(ShardingConstraintOp::create(
          builder, op->getLoc(), resultGradients[0], constraint.getSharding()));
    } else if (auto rule = dyn_cast<GradientOpInterface>(op)) {
      if (failed(
              rule.buildGradient(builder, resultGradients, operandGradients)))
        return failure();
    } else {
      return op->emitOpError("has no gradient rule");
    }
    if (operandGradients.size() != op->getNumOperands())
      return op->emitOpError("gradient rule gave ")
             << operandGradients.size() << " gradients for "
             << op->getNumOperands() << " operands";

    for (auto [operand, grad] :
         llvm::zip(op->getOperands(), operandGradients)) {
      if (!grad || !active.contains(operand))
        continue;
      if (grad.getType() != operand.getType())
        return op->emitOpError("gradient rule gave ")
               << grad.getType() << " for an operand of type "
               << operand.getType();
      Value &sum = gradients[operand];
      sum = sum ? AddOp::create(builder, op->getLoc(), sum, grad).getResult()
                : grad;
    }
  }

  // Parameters the loss does not depend on get a zero gradient.
  for (BlockArgument parameter : parameters)
    if (!gradients.lookup(parameter)) {
      stamp.layer = getFirstLayer(parameter);
      gradients[parameter] = splatLike(builder, func.getLoc(), parameter, 0.0);
    }
  // fp32 main gradients from the end of backward on: microbatch
  // accumulation and the data-parallel all-reduce then run in fp32.
  if (isMixed() && options.grads == GradientPrecision::F32)
    for (BlockArgument parameter : parameters) {
      Value &grad = gradients[parameter];
      // Right after the gradient is complete: its f16/bf16 copy is freed
      // there, not at the end of backward.
      Operation *producer = grad.getDefiningOp();
      stamp.layer = producer ? producer->getAttrOfType<IntegerAttr>(
                                   DistDialect::kLayerAttrName)
                             : IntegerAttr();
      if (producer)
        builder.setInsertionPointAfter(producer);
      else
        builder.setInsertionPoint(terminator);
      grad =
          CastOp::create(builder, grad.getLoc(), grad, Float32Type::get(ctx));
    }
  builder.setListener(nullptr);
  return success();
}

void TrainingStepBuilder::removeDeadBackwardOps() {
  // Rules build every operand's gradient, also for data inputs that need
  // none (e.g. d input of the first matmul); they are pure and unused.
  llvm::DenseSet<Value> kept;
  for (BlockArgument parameter : parameters)
    kept.insert(gradients.lookup(parameter));
  for (Operation *op : llvm::reverse(stamp.created)) {
    bool used = llvm::any_of(op->getResults(), [&](Value result) {
      return !result.use_empty() || kept.contains(result);
    });
    if (!used)
      op->erase();
  }
  stamp.created.clear();
}

DictionaryAttr TrainingStepBuilder::getNamedAttrs(StringRef name, Role role,
                                                  DictionaryAttr base) {
  MLIRContext *ctx = func.getContext();
  NamedAttrList attrs(base);
  attrs.set(DistDialect::kNameAttrName, StringAttr::get(ctx, name));
  attrs.set(kRoleAttrName, getRoleAttr(ctx, role));
  return attrs.getDictionary(ctx);
}

SmallVector<TrainingStepBuilder::ParameterInfo>
TrainingStepBuilder::collectParameterInfos() {
  MLIRContext *ctx = func.getContext();
  SmallVector<ParameterInfo> infos;
  for (BlockArgument parameter : parameters) {
    unsigned index = parameter.getArgNumber();
    auto name =
        func.getArgAttrOfType<StringAttr>(index, DistDialect::kNameAttrName);
    NamedAttrList layout;
    if (Attribute sharding =
            func.getArgAttr(index, DistDialect::kShardingAttrName))
      layout.set(DistDialect::kShardingAttrName, sharding);
    infos.push_back({index, name ? name.str() : "arg" + std::to_string(index),
                     parameter.getType(), parameter.getLoc(),
                     gradients.lookup(parameter), layout.getDictionary(ctx)});
  }
  return infos;
}

FailureOr<TrainingStepBuilder::NewArguments>
TrainingStepBuilder::buildArguments(ArrayRef<ParameterInfo> infos) {
  MLIRContext *ctx = func.getContext();
  NewArguments args;
  args.newIndexOfOld.assign(func.getNumArguments(), -1);
  auto add = [&](Type type, DictionaryAttr attrs, Location loc) {
    args.types.push_back(type);
    args.attrs.push_back(attrs);
    args.locs.push_back(loc);
  };
  for (const ParameterInfo &info : infos) {
    args.newIndexOfOld[info.oldIndex] = args.types.size();
    add(info.type, func.getArgAttrDict(info.oldIndex), info.loc);
  }
  // Adam: NAME.adam_m and NAME.adam_v per parameter (mixed precision:
  // NAME.master first, all three fp32), then one adam.step.
  args.stateBegin = args.types.size();
  if (options.optimizer == Optimizer::Adam) {
    DevicesAttr statePlacement = getPlacement(infos.front().type);
    for (const ParameterInfo &info : infos) {
      if (getPlacement(info.type) != statePlacement)
        return func.emitOpError("adam needs every parameter on one device set "
                                "(one adam.step serves them all); run "
                                "dist-autodiff before placing the program");
      Type stateType = isMixed() ? getF32Like(info.type) : info.type;
      SmallVector<StringRef, 3> suffixes;
      if (isMixed())
        suffixes.push_back(".master");
      suffixes.append({".adam_m", ".adam_v"});
      for (StringRef suffix : suffixes)
        add(stateType,
            getNamedAttrs(info.name + suffix.str(), Role::OptimizerState,
                          info.layout),
            info.loc);
    }
    add(RankedTensorType::get({}, Float32Type::get(ctx), statePlacement),
        getNamedAttrs("adam.step", Role::OptimizerState), func.getLoc());
  }
  args.stateEnd = args.types.size();
  for (BlockArgument arg : func.getArguments()) {
    if (args.newIndexOfOld[arg.getArgNumber()] >= 0)
      continue;
    args.newIndexOfOld[arg.getArgNumber()] = args.types.size();
    add(arg.getType(), func.getArgAttrDict(arg.getArgNumber()), arg.getLoc());
  }
  return args;
}

Block *TrainingStepBuilder::moveBodyToNewArguments(const NewArguments &args) {
  Block &oldBody = func.getBody().front();
  auto *newBody = new Block();
  newBody->addArguments(args.types, args.locs);
  for (BlockArgument arg : oldBody.getArguments())
    arg.replaceAllUsesWith(
        newBody->getArgument(args.newIndexOfOld[arg.getArgNumber()]));
  newBody->getOperations().splice(newBody->end(), oldBody.getOperations());
  func.getBody().push_back(newBody);
  oldBody.erase();
  // Both referred to the old block's arguments.
  parameters.clear();
  gradients.clear();
  return newBody;
}

void TrainingStepBuilder::buildUpdates(ArrayRef<ParameterInfo> infos,
                                       const NewArguments &args, Block *newBody,
                                       SmallVectorImpl<Value> &results,
                                       SmallVectorImpl<DictionaryAttr> &attrs) {
  MLIRContext *ctx = func.getContext();
  builder.setListener(&stamp);
  stamp.phase = getPhaseAttr(ctx, Phase::Optimizer);
  SmallVector<Value> newState;
  if (isMixed()) {
    buildMixedAdamUpdates(infos, args, newBody, results, newState);
    for (const ParameterInfo &info : infos)
      attrs.push_back(
          getNamedAttrs(info.name, Role::UpdatedParameter, info.layout));
  }
  for (auto [i, info] :
       llvm::enumerate(isMixed() ? ArrayRef<ParameterInfo>() : infos)) {
    Value param = newBody->getArgument(args.newIndexOfOld[info.oldIndex]);
    Value grad = info.grad;
    stamp.layer = getFirstLayer(param);
    switch (options.optimizer) {
    case Optimizer::None:
      results.push_back(grad);
      attrs.push_back(
          getNamedAttrs(info.name + ".grad", Role::Gradient, info.layout));
      continue;
    case Optimizer::Sgd:
      results.push_back(
          SgdUpdateOp::create(builder, param.getLoc(), param, grad,
                              llvm::APFloat(options.learningRate)));
      break;
    case Optimizer::Adam: {
      Value m = newBody->getArgument(args.stateBegin + 2 * i);
      Value v = newBody->getArgument(args.stateBegin + 2 * i + 1);
      Value step = newBody->getArgument(args.stateEnd - 1);
      auto update = AdamUpdateOp::create(
          builder, param.getLoc(), param, grad, m, v, step,
          llvm::APFloat(options.learningRate), llvm::APFloat(options.beta1),
          llvm::APFloat(options.beta2), llvm::APFloat(options.epsilon));
      results.push_back(update.getNewParam());
      newState.append({update.getNewMoment1(), update.getNewMoment2()});
      break;
    }
    }
    attrs.push_back(
        getNamedAttrs(info.name, Role::UpdatedParameter, info.layout));
  }
  if (options.optimizer == Optimizer::Adam) {
    Location loc = func.getLoc();
    Value step = newBody->getArgument(args.stateEnd - 1);
    stamp.layer = {};
    Value next =
        AddOp::create(builder, loc, step, splatLike(builder, loc, step, 1.0));
    if (overflow)
      next = WhereOp::create(builder, loc, overflow, step, next);
    newState.push_back(next);
    for (auto [value, stateAttrs] :
         llvm::zip(newState, ArrayRef(args.attrs)
                                 .slice(args.stateBegin,
                                        args.stateEnd - args.stateBegin))) {
      results.push_back(value);
      NamedAttrList updated(stateAttrs);
      updated.set(kRoleAttrName, getRoleAttr(ctx, Role::UpdatedOptimizerState));
      attrs.push_back(updated.getDictionary(ctx));
    }
  }
  builder.setListener(nullptr);
}

Value TrainingStepBuilder::buildGradientFactor(Location loc,
                                               Value sumOfSquares) {
  double inverseScale = 1.0 / options.lossScale;
  auto splat = [&](double value) {
    return splatLike(builder, loc, sumOfSquares, value);
  };
  auto scaled = [&](Value value) -> Value {
    if (inverseScale == 1.0)
      return value;
    return MulOp::create(builder, loc, value, splat(inverseScale));
  };
  if (options.clipGrad <= 0)
    return inverseScale == 1.0 ? Value() : splat(inverseScale);
  // The norm of the unscaled gradients, as Megatron-LM clips after
  // unscaling: coefficient = clip / (norm + 1e-6), applied when below 1.
  Value norm = scaled(SqrtOp::create(builder, loc, sumOfSquares));
  Value coefficient =
      DivOp::create(builder, loc, splat(options.clipGrad),
                    AddOp::create(builder, loc, norm, splat(kClipNormEpsilon)));
  // min(1, c) = 1 - relu(1 - c).
  Value one = splat(1.0);
  Value clipped = SubOp::create(
      builder, loc, one,
      ReluOp::create(builder, loc,
                     SubOp::create(builder, loc, one, coefficient)));
  return scaled(clipped);
}

void TrainingStepBuilder::buildMixedAdamUpdates(
    ArrayRef<ParameterInfo> infos, const NewArguments &args, Block *newBody,
    SmallVectorImpl<Value> &results, SmallVectorImpl<Value> &newState) {
  Type f32 = Float32Type::get(func.getContext());
  unsigned stride = getStatePerParameter();
  Value step = newBody->getArgument(args.stateEnd - 1);
  auto parameterOf = [&](const ParameterInfo &info) {
    return newBody->getArgument(args.newIndexOfOld[info.oldIndex]);
  };

  // fp32 main gradients (a copy when backward left them in f16/bf16).
  SmallVector<Value> mainGrads;
  for (const ParameterInfo &info : infos) {
    stamp.layer = getFirstLayer(parameterOf(info));
    Value grad = info.grad;
    if (!getElementTypeOrSelf(grad.getType()).isF32())
      grad = CastOp::create(builder, info.loc, grad, f32);
    mainGrads.push_back(grad);
  }

  // The global sum of squares: per parameter a reduction over all of its
  // dimensions (sharded parameters get their all-reduce from the sharding
  // of that reduction), then one sum of the scalars.
  Value factor;
  overflow = {};
  if (options.clipGrad > 0 || options.lossScale != 1.0) {
    Value total;
    for (auto [info, grad] : llvm::zip(infos, mainGrads)) {
      stamp.layer = getFirstLayer(parameterOf(info));
      Value square = MulOp::create(builder, info.loc, grad, grad);
      int64_t rank = cast<RankedTensorType>(square.getType()).getRank();
      if (rank > 0)
        square =
            ReduceSumOp::create(builder, info.loc, square,
                                llvm::to_vector(llvm::seq<int64_t>(0, rank)),
                                /*keepdims=*/false);
      total = total
                  ? AddOp::create(builder, info.loc, total, square).getResult()
                  : square;
    }
    stamp.layer = {};
    Location loc = func.getLoc();
    factor = buildGradientFactor(loc, total);
    // inf - inf and NaN - NaN are NaN (non-zero), a finite sum gives 0.
    if (options.lossScale != 1.0)
      overflow = CastOp::create(builder, loc,
                                SubOp::create(builder, loc, total, total),
                                IntegerType::get(func.getContext(), 1));
  }

  for (auto [i, info] : llvm::enumerate(infos)) {
    Value param = parameterOf(info);
    unsigned state = args.stateBegin + stride * i;
    Value master = newBody->getArgument(state);
    Value m = newBody->getArgument(state + 1);
    Value v = newBody->getArgument(state + 2);
    stamp.layer = getFirstLayer(param);
    Value grad = mainGrads[i];
    if (factor)
      grad = MulOp::create(builder, info.loc, grad, factor);
    auto update = AdamUpdateOp::create(
        builder, info.loc, master, grad, m, v, step,
        llvm::APFloat(options.learningRate), llvm::APFloat(options.beta1),
        llvm::APFloat(options.beta2), llvm::APFloat(options.epsilon));
    // The model copy of the updated fp32 master weights.
    Value newParam = CastOp::create(builder, info.loc, update.getNewParam(),
                                    getElementTypeOrSelf(param.getType()));
    SmallVector<Value, 4> updated = {newParam, update.getNewParam(),
                                     update.getNewMoment1(),
                                     update.getNewMoment2()};
    Value old[] = {param, master, m, v};
    if (overflow)
      for (auto [value, previous] : llvm::zip(updated, old))
        value = WhereOp::create(builder, info.loc, overflow, previous, value);
    results.push_back(updated[0]);
    newState.append(updated.begin() + 1, updated.end());
  }
}

LogicalResult TrainingStepBuilder::rewriteSignature() {
  // What the rewrite needs of each parameter, read before the old block
  // (and its arguments) goes away.
  SmallVector<ParameterInfo> infos = collectParameterInfos();
  // New arguments: parameters, optimizer state, then everything else.
  FailureOr<NewArguments> args = buildArguments(infos);
  if (failed(args))
    return failure();
  auto oldReturn = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  Block *newBody = moveBodyToNewArguments(*args);

  // Results: loss, updated parameters (or gradients), updated state, then
  // any other result of the forward function.
  SmallVector<Value> results = {oldReturn.getOperand(lossIndex)};
  SmallVector<DictionaryAttr> resultAttrs = {
      getNamedAttrs("loss", Role::Loss, func.getResultAttrDict(lossIndex))};
  builder.setInsertionPoint(oldReturn);
  buildUpdates(infos, *args, newBody, results, resultAttrs);
  for (unsigned i = 0; i < oldReturn.getNumOperands(); ++i) {
    if (i == lossIndex)
      continue;
    results.push_back(oldReturn.getOperand(i));
    resultAttrs.push_back(func.getResultAttrDict(i));
  }
  func::ReturnOp::create(builder, oldReturn.getLoc(), results);
  oldReturn.erase();

  SmallVector<Type> resultTypes;
  for (Value result : results)
    resultTypes.push_back(result.getType());
  func.setFunctionType(
      FunctionType::get(func.getContext(), args->types, resultTypes));
  func.setAllArgAttrs(args->attrs);
  func.setAllResultAttrs(resultAttrs);
  return success();
}

LogicalResult TrainingStepBuilder::run() {
  if (failed(findLossAndParameters()) || failed(resolvePrecision()) ||
      failed(differentiate()))
    return failure();
  removeDeadBackwardOps();
  return rewriteSignature();
}

struct AutodiffPass : public mlir::dist::impl::DistAutodiffBase<AutodiffPass> {
  using DistAutodiffBase::DistAutodiffBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<TrainingOptions> training = parseOptions(module);
    if (failed(training))
      return signalPassFailure();

    func::FuncOp func;
    for (auto candidate : module.getOps<func::FuncOp>()) {
      if (candidate.isExternal())
        continue;
      if (funcName.empty() || candidate.getSymName() == funcName) {
        func = candidate;
        break;
      }
    }
    if (!func) {
      if (funcName.empty())
        module.emitError(
            "dist-autodiff: the module has no function with a body");
      else
        module.emitError("dist-autodiff: no function named '")
            << funcName << "'";
      return signalPassFailure();
    }
    if (failed(TrainingStepBuilder(func, *training).run()))
      return signalPassFailure();
  }

  FailureOr<TrainingOptions> parseOptions(ModuleOp module) {
    TrainingOptions training;
    training.optimizer = optimizer;
    if (!(learningRate >= 0))
      return module.emitError("dist-autodiff: lr must be positive, got ")
             << learningRate;
    // 0 picks the optimizer's customary default.
    training.learningRate = learningRate > 0
                                ? learningRate
                                : (optimizer == Optimizer::Adam ? 1e-3 : 0.01);
    if (!(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1))
      return module.emitError(
                 "dist-autodiff: beta1 and beta2 must be in [0, 1), got ")
             << beta1 << " and " << beta2;
    if (!(epsilon >= 0))
      return module.emitError(
                 "dist-autodiff: epsilon must be non-negative, got ")
             << epsilon;
    training.beta1 = beta1;
    training.beta2 = beta2;
    training.epsilon = epsilon;
    if (!(clipGrad >= 0))
      return module.emitError(
                 "dist-autodiff: clip-grad must be non-negative, got ")
             << clipGrad;
    if (!(lossScale > 0))
      return module.emitError(
                 "dist-autodiff: loss-scale must be positive, got ")
             << lossScale;
    training.precision = precision;
    training.grads = grads;
    training.clipGrad = clipGrad;
    training.lossScale = lossScale;
    return training;
  }
};

} // namespace
