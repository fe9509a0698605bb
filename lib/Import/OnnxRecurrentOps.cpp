//===- OnnxRecurrentOps.cpp - RNN, LSTM and GRU unrolled ------------------===//
//
// ONNX's recurrent ops are imported unrolled over the (static) sequence: one
// matmul of the whole input with W per direction, then per time step a
// matmul of the hidden state with R and the cell's gates as elementwise
// dist ops. Autodiff, the sharding rules, the simulator and the executor
// then handle them without recurrent ops of their own; the cost is a
// program that grows with the sequence length.
//
// Equations and layouts follow the ONNX operator definitions (gates i, o,
// f, c for LSTM and z, r, h for GRU; W [D, G*H, I], R [D, G*H, H], B
// [D, 2*G*H]; Y [S, D, B, H], or [B, S, D, H] with layout = 1).
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

#include "distir/Dialect/Dist/IR/Dist.h"
#include "distir/Executor/Executor.h"
#include "distir/ShapeInference/ShapeRules.h"

using namespace mlir;
using namespace distir;
using namespace distir::onnx_import;

namespace {

enum class Cell { RNN, LSTM, GRU };

/// What a recurrent node computes, read from its attributes and input
/// shapes.
struct Recurrence {
  Cell cell = Cell::RNN;
  int64_t hidden = 0, gates = 1, seqLength = 0, batch = 0, inputSize = 0;
  /// The directions in output order: false = forward, true = reverse.
  SmallVector<bool, 2> reverse;
  bool batchMajor = false;
  bool linearBeforeReset = false;
  /// Per direction, the cell's activations (f; f, g; or f, g, h).
  SmallVector<SmallVector<std::string, 3>, 2> activations;
};

/// The inputs of one direction, as 2-D weights and 1-D biases.
struct Direction {
  Value inputProjection; // [S, B, G*H]: X W^T + Wb
  Value recurrence;      // R [G*H, H]
  Value recurrenceBias;  // Rb [G*H], or null
  Value peepholes;       // P [3H] (LSTM), or null
  Value hidden, cell;    // the initial states [B, H]
};

FailureOr<Value> applyActivation(NodeImporter &n, StringRef name, Value x) {
  if (name == "Sigmoid")
    return n.create<dist::SigmoidOp>(x);
  if (name == "Tanh")
    return n.create<dist::TanhOp>(x);
  if (name == "Relu")
    return n.create<dist::ReluOp>(x);
  return n.error("activation '" + name + "' is not supported");
}

FailureOr<Recurrence> readRecurrence(NodeImporter &n, Cell cell, Value x) {
  Recurrence r;
  r.cell = cell;
  r.gates = cell == Cell::LSTM ? 4 : cell == Cell::GRU ? 3 : 1;
  r.batchMajor = n.getInt("layout", 0) != 0;
  r.linearBeforeReset = n.getInt("linear_before_reset", 0) != 0;
  auto type = getTensorType(x);
  if (type.getRank() != 3 || !type.hasStaticShape())
    return n.error("the input X needs a static rank-3 shape; give the input "
                   "shapes with --input-shape");
  r.seqLength = type.getDimSize(r.batchMajor ? 1 : 0);
  r.batch = type.getDimSize(r.batchMajor ? 0 : 1);
  r.inputSize = type.getDimSize(2);
  r.hidden = n.getInt("hidden_size", 0);
  if (r.hidden <= 0)
    return n.error("hidden_size must be given and positive");
  if (n.findAttr("clip"))
    return n.error("clip is not supported");
  if (n.findAttr("activation_alpha") || n.findAttr("activation_beta"))
    return n.error("activation_alpha and activation_beta are not supported");
  if (n.getInt("input_forget", 0) != 0)
    return n.error("input_forget is not supported");
  std::string direction = n.getString("direction", "forward");
  if (direction == "forward" || direction == "bidirectional")
    r.reverse.push_back(false);
  if (direction == "reverse" || direction == "bidirectional")
    r.reverse.push_back(true);
  if (r.reverse.empty())
    return n.error("direction '" + direction +
                   "' is not one of forward, "
                   "reverse, bidirectional");

  SmallVector<std::string, 3> defaults =
      cell == Cell::LSTM
          ? SmallVector<std::string, 3>{"Sigmoid", "Tanh", "Tanh"}
      : cell == Cell::GRU ? SmallVector<std::string, 3>{"Sigmoid", "Tanh"}
                          : SmallVector<std::string, 3>{"Tanh"};
  const onnx::AttributeProto *given = n.findAttr("activations");
  const size_t perDirection = defaults.size();
  if (given && static_cast<size_t>(given->strings_size()) !=
                   perDirection * r.reverse.size())
    return n.error("activations needs " +
                   Twine(perDirection * r.reverse.size()) + " entries");
  for (size_t d = 0; d < r.reverse.size(); ++d) {
    SmallVector<std::string, 3> names = defaults;
    if (given)
      for (size_t k = 0; k < perDirection; ++k)
        names[k] = given->strings(static_cast<int>(d * perDirection + k));
    r.activations.push_back(names);
  }
  return r;
}

/// Row `d` of a [D, ...] tensor, reshaped to `shape`.
FailureOr<Value> selectDirection(NodeImporter &n, Value value, int64_t d,
                                 int64_t directions, ArrayRef<int64_t> shape) {
  auto type = getTensorType(value);
  if (type.getRank() < 1 || type.getDimSize(0) != directions)
    return n.error("an input of shape " + shapes::formatDims(type.getShape()) +
                   " has no " + Twine(directions) + " directions");
  Value row = value;
  if (directions != 1) {
    ASSIGN_OR_RETURN(slice, n.createSliceAlong(value, 0, d, d + 1));
    row = slice;
  }
  return n.createReshape(row, shape);
}

/// An initial state [D, B, H] (or [B, D, H] with layout = 1) of direction
/// `d`, zeros when the input is absent.
FailureOr<Value> getInitialState(NodeImporter &n, const Recurrence &r,
                                 int index, int64_t d, Value like) {
  if (!n.hasInput(index)) {
    std::optional<ElementType> type =
        getHostElementType(getElementTypeOrSelf(like.getType()));
    if (!type)
      return n.error("X has an unsupported element type");
    return n.createConstant(HostTensor(*type, {r.batch, r.hidden}));
  }
  ASSIGN_OR_RETURN(state, n.getInput(index));
  if (r.batchMajor) {
    ASSIGN_OR_RETURN(transposed,
                     n.create<dist::TransposeOp>(
                         state, n.builder.getDenseI64ArrayAttr({1, 0, 2})));
    state = transposed;
  }
  const auto directions = static_cast<int64_t>(r.reverse.size());
  return selectDirection(n, state, d, directions, {r.batch, r.hidden});
}

/// W, R, B, the initial states and the peepholes of direction `d`; the
/// input projection X W^T + Wb of every time step is one matmul.
FailureOr<Direction> prepareDirection(NodeImporter &n, const Recurrence &r,
                                      Value x, int64_t d) {
  const auto directions = static_cast<int64_t>(r.reverse.size());
  const int64_t width = r.gates * r.hidden;
  Direction dir;
  ASSIGN_OR_RETURN(wAll, n.getInput(1));
  ASSIGN_OR_RETURN(rAll, n.getInput(2));
  ASSIGN_OR_RETURN(
      w, selectDirection(n, wAll, d, directions, {width, r.inputSize}));
  ASSIGN_OR_RETURN(rec,
                   selectDirection(n, rAll, d, directions, {width, r.hidden}));
  dir.recurrence = rec;
  // [S, B, I] x [G*H, I]^T as one matmul broadcast over the sequence; not
  // through a [S*B, I] reshape, whose batch would be the minor factor of a
  // merged dimension (which microbatching cannot split).
  ASSIGN_OR_RETURN(projection, n.create<dist::MatmulOp>(
                                   x, w, UnitAttr(), n.builder.getUnitAttr()));
  dir.inputProjection = projection;
  if (Value bAll = n.getOptionalInput(3)) {
    ASSIGN_OR_RETURN(b, selectDirection(n, bAll, d, directions, {2 * width}));
    ASSIGN_OR_RETURN(wb, n.createSliceAlong(b, 0, 0, width));
    ASSIGN_OR_RETURN(rb, n.createSliceAlong(b, 0, width, 2 * width));
    ASSIGN_OR_RETURN(biased, n.create<dist::AddOp>(projection, wb));
    dir.inputProjection = biased;
    dir.recurrenceBias = rb;
  }
  ASSIGN_OR_RETURN(hidden, getInitialState(n, r, 5, d, x));
  dir.hidden = hidden;
  if (r.cell == Cell::LSTM) {
    ASSIGN_OR_RETURN(cell, getInitialState(n, r, 6, d, x));
    dir.cell = cell;
    if (Value pAll = n.getOptionalInput(7)) {
      ASSIGN_OR_RETURN(p,
                       selectDirection(n, pAll, d, directions, {3 * r.hidden}));
      dir.peepholes = p;
    }
  }
  return dir;
}

/// h W^T (+ b) for the rows [begin, end) of a recurrence weight.
FailureOr<Value> projectState(NodeImporter &n, Value h, Value weight,
                              Value bias, int64_t begin, int64_t end) {
  const bool whole = begin == 0 && end == getTensorType(weight).getDimSize(0);
  Value w = weight;
  if (!whole) {
    ASSIGN_OR_RETURN(rows, n.createSliceAlong(weight, 0, begin, end));
    w = rows;
  }
  ASSIGN_OR_RETURN(product, n.create<dist::MatmulOp>(h, w, UnitAttr(),
                                                     n.builder.getUnitAttr()));
  if (!bias)
    return product;
  if (whole)
    return n.create<dist::AddOp>(product, bias);
  ASSIGN_OR_RETURN(b, n.createSliceAlong(bias, 0, begin, end));
  return n.create<dist::AddOp>(product, b);
}

/// The gate blocks of a [B, k*H] value.
FailureOr<SmallVector<Value, 4>> splitGates(NodeImporter &n, Value value,
                                            int64_t count, int64_t hidden) {
  ASSIGN_OR_RETURN(op, n.createOp<dist::SplitOp>(
                           count, value, n.builder.getI64IntegerAttr(1),
                           n.builder.getDenseI64ArrayAttr(
                               SmallVector<int64_t>(count, hidden))));
  return SmallVector<Value, 4>(op->getResults());
}

/// x + p * c, or x without peepholes.
FailureOr<Value> addPeephole(NodeImporter &n, Value x, Value peepholes,
                             int64_t block, int64_t hidden, Value c) {
  if (!peepholes)
    return x;
  ASSIGN_OR_RETURN(p, n.createSliceAlong(peepholes, 0, block * hidden,
                                         (block + 1) * hidden));
  ASSIGN_OR_RETURN(term, n.create<dist::MulOp>(p, c));
  return n.create<dist::AddOp>(x, term);
}

/// One LSTM step: updates dir.hidden and dir.cell.
LogicalResult stepLstm(NodeImporter &n, const Recurrence &r,
                       ArrayRef<std::string> act, Direction &dir, Value xt) {
  ASSIGN_OR_RETURN(hr, projectState(n, dir.hidden, dir.recurrence,
                                    dir.recurrenceBias, 0, 4 * r.hidden));
  ASSIGN_OR_RETURN(sum, n.create<dist::AddOp>(xt, hr));
  ASSIGN_OR_RETURN(g, splitGates(n, sum, 4, r.hidden));
  // Gates i, o, f, c; peepholes P = [Pi, Po, Pf].
  ASSIGN_OR_RETURN(iIn,
                   addPeephole(n, g[0], dir.peepholes, 0, r.hidden, dir.cell));
  ASSIGN_OR_RETURN(fIn,
                   addPeephole(n, g[2], dir.peepholes, 2, r.hidden, dir.cell));
  ASSIGN_OR_RETURN(i, applyActivation(n, act[0], iIn));
  ASSIGN_OR_RETURN(f, applyActivation(n, act[0], fIn));
  ASSIGN_OR_RETURN(candidate, applyActivation(n, act[1], g[3]));
  ASSIGN_OR_RETURN(kept, n.create<dist::MulOp>(f, dir.cell));
  ASSIGN_OR_RETURN(added, n.create<dist::MulOp>(i, candidate));
  ASSIGN_OR_RETURN(cell, n.create<dist::AddOp>(kept, added));
  ASSIGN_OR_RETURN(oIn, addPeephole(n, g[1], dir.peepholes, 1, r.hidden, cell));
  ASSIGN_OR_RETURN(o, applyActivation(n, act[0], oIn));
  ASSIGN_OR_RETURN(squashed, applyActivation(n, act[2], cell));
  ASSIGN_OR_RETURN(hidden, n.create<dist::MulOp>(o, squashed));
  dir.cell = cell;
  dir.hidden = hidden;
  return success();
}

/// One GRU step: updates dir.hidden.
LogicalResult stepGru(NodeImporter &n, const Recurrence &r,
                      ArrayRef<std::string> act, Direction &dir, Value xt) {
  const int64_t h = r.hidden;
  ASSIGN_OR_RETURN(x, splitGates(n, xt, 3, h));
  ASSIGN_OR_RETURN(hzr, projectState(n, dir.hidden, dir.recurrence,
                                     dir.recurrenceBias, 0, 2 * h));
  ASSIGN_OR_RETURN(zr, splitGates(n, hzr, 2, h));
  ASSIGN_OR_RETURN(zIn, n.create<dist::AddOp>(x[0], zr[0]));
  ASSIGN_OR_RETURN(rIn, n.create<dist::AddOp>(x[1], zr[1]));
  ASSIGN_OR_RETURN(z, applyActivation(n, act[0], zIn));
  ASSIGN_OR_RETURN(reset, applyActivation(n, act[0], rIn));
  Value recurrent;
  if (r.linearBeforeReset) {
    // r * (H Rh^T + Rbh)
    ASSIGN_OR_RETURN(hh, projectState(n, dir.hidden, dir.recurrence,
                                      dir.recurrenceBias, 2 * h, 3 * h));
    ASSIGN_OR_RETURN(gated, n.create<dist::MulOp>(reset, hh));
    recurrent = gated;
  } else {
    // (r * H) Rh^T + Rbh
    ASSIGN_OR_RETURN(gated, n.create<dist::MulOp>(reset, dir.hidden));
    ASSIGN_OR_RETURN(hh, projectState(n, gated, dir.recurrence,
                                      dir.recurrenceBias, 2 * h, 3 * h));
    recurrent = hh;
  }
  ASSIGN_OR_RETURN(candidateIn, n.create<dist::AddOp>(x[2], recurrent));
  ASSIGN_OR_RETURN(candidate, applyActivation(n, act[1], candidateIn));
  // (1 - z) * candidate + z * H
  ASSIGN_OR_RETURN(one, n.createScalar(z, 1.0));
  ASSIGN_OR_RETURN(keepNew, n.create<dist::SubOp>(one, z));
  ASSIGN_OR_RETURN(fresh, n.create<dist::MulOp>(keepNew, candidate));
  ASSIGN_OR_RETURN(old, n.create<dist::MulOp>(z, dir.hidden));
  ASSIGN_OR_RETURN(hidden, n.create<dist::AddOp>(fresh, old));
  dir.hidden = hidden;
  return success();
}

/// One simple RNN step: H = f(x W^T + H R^T + Wb + Rb).
LogicalResult stepRnn(NodeImporter &n, const Recurrence &r,
                      ArrayRef<std::string> act, Direction &dir, Value xt) {
  ASSIGN_OR_RETURN(hr, projectState(n, dir.hidden, dir.recurrence,
                                    dir.recurrenceBias, 0, r.hidden));
  ASSIGN_OR_RETURN(sum, n.create<dist::AddOp>(xt, hr));
  ASSIGN_OR_RETURN(hidden, applyActivation(n, act[0], sum));
  dir.hidden = hidden;
  return success();
}

/// Concatenates values reshaped to `shape` along `axis`.
FailureOr<Value> stack(NodeImporter &n, ArrayRef<Value> values,
                       ArrayRef<int64_t> shape, int64_t axis) {
  SmallVector<Value> parts;
  for (Value value : values) {
    ASSIGN_OR_RETURN(part, n.createReshape(value, shape));
    parts.push_back(part);
  }
  if (parts.size() == 1)
    return parts.front();
  return n.create<dist::ConcatOp>(ValueRange(parts),
                                  n.builder.getI64IntegerAttr(axis));
}

/// Sets Y, Y_h (and Y_c) from each direction's per-step hidden states and
/// final states, transposed to batch-major with layout = 1.
LogicalResult setOutputs(NodeImporter &n, const Recurrence &r,
                         ArrayRef<SmallVector<Value>> steps,
                         ArrayRef<Direction> finals) {
  SmallVector<Value> perDirection, lastHidden, lastCell;
  for (auto [hiddens, final] : llvm::zip(steps, finals)) {
    ASSIGN_OR_RETURN(y, stack(n, hiddens, {1, 1, r.batch, r.hidden}, 0));
    perDirection.push_back(y);
    lastHidden.push_back(final.hidden);
    lastCell.push_back(final.cell);
  }
  ASSIGN_OR_RETURN(
      y, stack(n, perDirection, {r.seqLength, 1, r.batch, r.hidden}, 1));
  ASSIGN_OR_RETURN(yh, stack(n, lastHidden, {1, r.batch, r.hidden}, 0));
  SmallVector<Value, 3> outputs{y, yh};
  if (r.cell == Cell::LSTM) {
    ASSIGN_OR_RETURN(yc, stack(n, lastCell, {1, r.batch, r.hidden}, 0));
    outputs.push_back(yc);
  }
  for (auto [index, value] : llvm::enumerate(outputs)) {
    if (!n.hasOutput(static_cast<int>(index)))
      continue;
    if (r.batchMajor) {
      SmallVector<int64_t> perm = index == 0 ? SmallVector<int64_t>{2, 0, 1, 3}
                                             : SmallVector<int64_t>{1, 0, 2};
      ASSIGN_OR_RETURN(transposed,
                       n.create<dist::TransposeOp>(
                           value, n.builder.getDenseI64ArrayAttr(perm)));
      value = transposed;
    }
    n.setOutput(static_cast<int>(index), value);
  }
  return success();
}

/// sequence_lens must cover the whole sequence: the unrolled program has no
/// per-row lengths.
LogicalResult checkSequenceLengths(NodeImporter &n, const Recurrence &r) {
  if (!n.hasInput(4))
    return success();
  ASSIGN_OR_RETURN(lengths, n.getStaticInts(4, "sequence_lens"));
  for (int64_t length : lengths)
    if (length != r.seqLength)
      return n.error("sequence_lens shorter than the sequence (" +
                     Twine(length) + " of " + Twine(r.seqLength) +
                     ") are not supported");
  return success();
}

LogicalResult convertRecurrent(NodeImporter &n, Cell cell) {
  ASSIGN_OR_RETURN(input, n.getInput(0));
  if (failed(n.requireFloat(input)))
    return failure();
  ASSIGN_OR_RETURN(r, readRecurrence(n, cell, input));
  if (failed(checkSequenceLengths(n, r)))
    return failure();
  Value x = input;
  if (r.batchMajor) {
    ASSIGN_OR_RETURN(transposed,
                     n.create<dist::TransposeOp>(
                         input, n.builder.getDenseI64ArrayAttr({1, 0, 2})));
    x = transposed;
  }
  SmallVector<SmallVector<Value>> steps;
  SmallVector<Direction> finals;
  for (auto [d, reverse] : llvm::enumerate(r.reverse)) {
    ASSIGN_OR_RETURN(dir, prepareDirection(n, r, x, static_cast<int64_t>(d)));
    SmallVector<Value> hiddens(r.seqLength);
    for (int64_t step = 0; step < r.seqLength; ++step) {
      int64_t t = reverse ? r.seqLength - 1 - step : step;
      ASSIGN_OR_RETURN(slice,
                       n.createSliceAlong(dir.inputProjection, 0, t, t + 1));
      ASSIGN_OR_RETURN(xt,
                       n.createReshape(slice, {r.batch, r.gates * r.hidden}));
      ArrayRef<std::string> act = r.activations[d];
      LogicalResult stepped = cell == Cell::LSTM  ? stepLstm(n, r, act, dir, xt)
                              : cell == Cell::GRU ? stepGru(n, r, act, dir, xt)
                                                  : stepRnn(n, r, act, dir, xt);
      if (failed(stepped))
        return failure();
      hiddens[t] = dir.hidden;
    }
    steps.push_back(std::move(hiddens));
    finals.push_back(dir);
  }
  return setOutputs(n, r, steps, finals);
}

} // namespace

LogicalResult onnx_import::convertRNN(NodeImporter &n) {
  return convertRecurrent(n, Cell::RNN);
}
LogicalResult onnx_import::convertLSTM(NodeImporter &n) {
  return convertRecurrent(n, Cell::LSTM);
}
LogicalResult onnx_import::convertGRU(NodeImporter &n) {
  return convertRecurrent(n, Cell::GRU);
}
