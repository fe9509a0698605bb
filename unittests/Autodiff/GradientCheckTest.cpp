//===- GradientCheckTest.cpp - autodiff gradients vs finite differences ---===//
//
// The generated MLP and a 2-layer GPT, then every gradient rule of the
// dialect on its own: each case is a small f64 function whose output is
// weighted by a random data tensor and summed into the loss (so that no
// gradient cancels by symmetry), checked element by element.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "distir/Models/Models.h"

#include "gtest/gtest.h"

#include <ostream>
#include <string>

using namespace distir;
using namespace distir::testing;
using namespace mlir;

namespace {

void expectGradientsMatch(const GradientCheckResult &result) {
  ASSERT_EQ(result.error, "");
  EXPECT_GT(result.numParameters, 0);
  EXPECT_GT(result.numElementsChecked, 0);
  for (const std::string &mismatch : result.mismatches)
    ADD_FAILURE() << mismatch;
}

TEST(GradientCheck, Mlp) {
  auto context = makeContext();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(UnknownLoc::get(context.get()));
  models::MlpConfig config;
  config.layers = 3;
  config.hidden = 6;
  config.batch = 4;
  config.inputDim = 5;
  config.dtype = "f64";
  ASSERT_TRUE(succeeded(models::buildMlp(*module, config)));
  GradientCheckResult result = checkGradients(*module);
  expectGradientsMatch(result);
  EXPECT_EQ(result.numParameters, 3);
  // Every element of every weight.
  EXPECT_EQ(result.numElementsChecked, models::getNumParameters(config));
}

TEST(GradientCheck, Gpt) {
  auto context = makeContext();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(UnknownLoc::get(context.get()));
  models::GptConfig config;
  config.layers = 2;
  config.hidden = 16;
  config.heads = 2;
  config.seq = 8;
  config.vocab = 32;
  config.batch = 2;
  config.dtype = "f64";
  ASSERT_TRUE(succeeded(models::buildGpt(*module, config)));
  // Every element of all 28 parameters (the LM head is the word embedding,
  // whose gradient sums the lookup's and the head's): 7232 elements, two
  // forward runs each (a few seconds).
  GradientCheckResult result = checkGradients(*module);
  expectGradientsMatch(result);
  EXPECT_EQ(result.numParameters, 2 + 12 * 2 + 2);
  EXPECT_EQ(result.numElementsChecked, models::getNumParameters(config));
}

//===----------------------------------------------------------------------===//
// One op at a time
//===----------------------------------------------------------------------===//

struct OpCase {
  const char *name;
  /// Arguments (parameters and data) of the function, without `%r`.
  const char *arguments;
  /// Ops computing `%y` of type `output`.
  const char *body;
  const char *output;
  int64_t outputRank;
};

#define P " {dist.role = \"parameter\"}"
#define D " {dist.role = \"data\"}"

std::string makeProgram(const OpCase &c) {
  std::string axes;
  for (int64_t d = 0; d < c.outputRank; ++d)
    axes += (d ? ", " : "") + std::to_string(d);
  std::string out = c.output;
  return std::string("func.func @f(") + c.arguments + ", %r: " + out + D +
         ") -> tensor<f64> {\n" + c.body +
         "\n  %weighted = dist.mul %y, %r : (" + out + ", " + out + ") -> " +
         out + "\n  %loss = dist.reduce_sum %weighted {axes = array<i64" +
         (axes.empty() ? "" : ": " + axes) + ">} : (" + out +
         ") -> tensor<f64>\n  return %loss : tensor<f64>\n}\n";
}

const OpCase kOpCases[] = {
    // Matmul: transposes, broadcast batch dims, rank-1 operands, and the
    // shared-weight path that contracts all rows at once.
    {"matmul_transpose_a", "%a: tensor<2x3x4xf64>" P ", %b: tensor<3x5xf64>" P,
     "%y = dist.matmul %a, %b {transpose_a} : (tensor<2x3x4xf64>, "
     "tensor<3x5xf64>) -> tensor<2x4x5xf64>",
     "tensor<2x4x5xf64>", 3},
    {"matmul_broadcast_lhs_transpose_b",
     "%a: tensor<4x3xf64>" P ", %b: tensor<2x5x3xf64>" P,
     "%y = dist.matmul %a, %b {transpose_b} : (tensor<4x3xf64>, "
     "tensor<2x5x3xf64>) -> tensor<2x4x5xf64>",
     "tensor<2x4x5xf64>", 3},
    {"matmul_shared_weight",
     "%a: tensor<2x3x4xf64>" P ", %b: tensor<4x5xf64>" P,
     "%y = dist.matmul %a, %b : (tensor<2x3x4xf64>, tensor<4x5xf64>) -> "
     "tensor<2x3x5xf64>",
     "tensor<2x3x5xf64>", 3},
    {"matmul_shared_weight_transpose_b",
     "%a: tensor<2x3x4xf64>" P ", %b: tensor<5x4xf64>" P,
     "%y = dist.matmul %a, %b {transpose_b} : (tensor<2x3x4xf64>, "
     "tensor<5x4xf64>) -> tensor<2x3x5xf64>",
     "tensor<2x3x5xf64>", 3},
    {"matmul_both_transposed",
     "%a: tensor<3x4xf64>" P ", %b: tensor<5x3xf64>" P,
     "%y = dist.matmul %a, %b {transpose_a, transpose_b} : (tensor<3x4xf64>, "
     "tensor<5x3xf64>) -> tensor<4x5xf64>",
     "tensor<4x5xf64>", 2},
    {"matmul_vector_lhs", "%a: tensor<3xf64>" P ", %b: tensor<2x3x4xf64>" P,
     "%y = dist.matmul %a, %b : (tensor<3xf64>, tensor<2x3x4xf64>) -> "
     "tensor<2x4xf64>",
     "tensor<2x4xf64>", 2},
    {"matmul_vector_rhs", "%a: tensor<2x3x4xf64>" P ", %b: tensor<4xf64>" P,
     "%y = dist.matmul %a, %b : (tensor<2x3x4xf64>, tensor<4xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"matmul_batch_broadcast",
     "%a: tensor<2x1x3x4xf64>" P ", %b: tensor<3x4x5xf64>" P,
     "%y = dist.matmul %a, %b : (tensor<2x1x3x4xf64>, tensor<3x4x5xf64>) -> "
     "tensor<2x3x3x5xf64>",
     "tensor<2x3x3x5xf64>", 4},

    // Elementwise with broadcasting.
    {"add_broadcast", "%a: tensor<2x3xf64>" P ", %b: tensor<3xf64>" P,
     "%y = dist.add %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"sub_broadcast", "%a: tensor<2x1xf64>" P ", %b: tensor<2x3xf64>" P,
     "%y = dist.sub %a, %b : (tensor<2x1xf64>, tensor<2x3xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"mul_broadcast", "%a: tensor<2x3xf64>" P ", %b: tensor<2x1xf64>" P,
     "%y = dist.mul %a, %b : (tensor<2x3xf64>, tensor<2x1xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"div_broadcast", "%a: tensor<2x3xf64>" P ", %b: tensor<3xf64>" P,
     "%e = dist.exp %b : (tensor<3xf64>) -> tensor<3xf64>\n"
     "%y = dist.div %a, %e : (tensor<2x3xf64>, tensor<3xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"pow_broadcast", "%a: tensor<2x3xf64>" P ", %b: tensor<3xf64>" P,
     "%e = dist.exp %a : (tensor<2x3xf64>) -> tensor<2x3xf64>\n"
     "%y = dist.pow %e, %b : (tensor<2x3xf64>, tensor<3xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"where_broadcast",
     "%c: tensor<2x3xi1>" D ", %t: tensor<2x3xf64>" P ", %f: tensor<3xf64>" P,
     "%y = dist.where %c, %t, %f : (tensor<2x3xi1>, tensor<2x3xf64>, "
     "tensor<3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"neg", "%a: tensor<2x3xf64>" P,
     "%y = dist.neg %a : (tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"exp_log", "%a: tensor<2x3xf64>" P,
     "%e = dist.exp %a : (tensor<2x3xf64>) -> tensor<2x3xf64>\n"
     "%s = dist.sigmoid %e : (tensor<2x3xf64>) -> tensor<2x3xf64>\n"
     "%y = dist.log %s : (tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"sqrt", "%a: tensor<2x3xf64>" P,
     "%e = dist.exp %a : (tensor<2x3xf64>) -> tensor<2x3xf64>\n"
     "%y = dist.sqrt %e : (tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"rsqrt", "%a: tensor<2x3xf64>" P,
     "%e = dist.exp %a : (tensor<2x3xf64>) -> tensor<2x3xf64>\n"
     "%y = dist.rsqrt %e : (tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"erf", "%a: tensor<2x3xf64>" P,
     "%y = dist.erf %a : (tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"relu", "%a: tensor<2x3xf64>" P,
     "%y = dist.relu %a : (tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"tanh", "%a: tensor<2x3xf64>" P,
     "%y = dist.tanh %a : (tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"gelu_erf", "%a: tensor<2x3xf64>" P,
     "%y = dist.gelu %a : (tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"gelu_tanh", "%a: tensor<2x3xf64>" P,
     "%y = dist.gelu %a {approximate = #dist<gelu_approximation tanh>} : "
     "(tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"dropout", "%a: tensor<2x3xf64>" P,
     "%y = dist.dropout %a {ratio = 0.1 : f64} : (tensor<2x3xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},

    // Softmax and normalization.
    {"softmax_causal_scaled", "%a: tensor<2x4x4xf64>" P,
     "%y = dist.softmax %a {causal, scale = 0.7 : f64} : (tensor<2x4x4xf64>) "
     "-> tensor<2x4x4xf64>",
     "tensor<2x4x4xf64>", 3},
    // Fused attention: the same gradient as the unfused chain, with the
    // causal mask and with a dropout mask (fixed by its id: linear).
    {"attention_causal",
     "%q: tensor<1x2x4x3xf64>" P ", %k: tensor<1x2x4x3xf64>" P
     ", %v: tensor<1x2x4x2xf64>" P,
     "%y, %lse = dist.attention %q, %k, %v {causal, scale = 0.7 : f64} : "
     "(tensor<1x2x4x3xf64>, tensor<1x2x4x3xf64>, tensor<1x2x4x2xf64>) -> "
     "(tensor<1x2x4x2xf64>, tensor<1x2x4xf32>)",
     "tensor<1x2x4x2xf64>", 4},
    {"attention_dropout",
     "%q: tensor<2x1x3x2xf64>" P ", %k: tensor<2x1x4x2xf64>" P
     ", %v: tensor<2x1x4x3xf64>" P,
     "%y, %lse = dist.attention %q, %k, %v {dropout_ratio = 0.3 : f64, "
     "dropout_id = 5} : (tensor<2x1x3x2xf64>, tensor<2x1x4x2xf64>, "
     "tensor<2x1x4x3xf64>) -> (tensor<2x1x3x3xf64>, tensor<2x1x3xf32>)",
     "tensor<2x1x3x3xf64>", 4},
    {"softmax_axis0", "%a: tensor<3x4xf64>" P,
     "%y = dist.softmax %a {axis = 0 : i64} : (tensor<3x4xf64>) -> "
     "tensor<3x4xf64>",
     "tensor<3x4xf64>", 2},
    {"log_softmax", "%a: tensor<3x4xf64>" P,
     "%y = dist.log_softmax %a {axis = 1 : i64} : (tensor<3x4xf64>) -> "
     "tensor<3x4xf64>",
     "tensor<3x4xf64>", 2},
    {"layer_norm",
     "%x: tensor<2x3x4xf64>" P ", %s: tensor<4xf64>" P ", %b: tensor<4xf64>" P,
     "%y = dist.layer_norm %x, %s, %b : (tensor<2x3x4xf64>, tensor<4xf64>, "
     "tensor<4xf64>) -> tensor<2x3x4xf64>",
     "tensor<2x3x4xf64>", 3},
    {"layer_norm_axis1",
     "%x: tensor<2x3x4xf64>" P ", %s: tensor<3x4xf64>" P
     ", %b: tensor<3x4xf64>" P,
     "%y = dist.layer_norm %x, %s, %b {axis = 1 : i64} : (tensor<2x3x4xf64>, "
     "tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<2x3x4xf64>",
     "tensor<2x3x4xf64>", 3},
    {"batch_norm",
     "%x: tensor<2x3x4xf64>" P ", %s: tensor<3xf64>" P ", %b: tensor<3xf64>" P
     ", %m: tensor<3xf64>" D ", %v: tensor<3xf64>" D,
     "%e = dist.exp %v : (tensor<3xf64>) -> tensor<3xf64>\n"
     "%y = dist.batch_norm %x, %s, %b, %m, %e : (tensor<2x3x4xf64>, "
     "tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> "
     "tensor<2x3x4xf64>",
     "tensor<2x3x4xf64>", 3},

    // Data movement.
    {"transpose", "%a: tensor<2x3x4xf64>" P,
     "%y = dist.transpose %a {permutation = array<i64: 2, 0, 1>} : "
     "(tensor<2x3x4xf64>) -> tensor<4x2x3xf64>",
     "tensor<4x2x3xf64>", 3},
    {"reshape", "%a: tensor<2x3x4xf64>" P,
     "%y = dist.reshape %a {shape = array<i64: 6, -1>} : (tensor<2x3x4xf64>) "
     "-> tensor<6x4xf64>",
     "tensor<6x4xf64>", 2},
    {"concat", "%a: tensor<2x3xf64>" P ", %b: tensor<2x2xf64>" P,
     "%y = dist.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf64>, "
     "tensor<2x2xf64>) -> tensor<2x5xf64>",
     "tensor<2x5xf64>", 2},
    {"slice_strided", "%a: tensor<5x6xf64>" P,
     "%y = dist.slice %a {starts = array<i64: 1, 0>, limits = array<i64: 5, "
     "6>, strides = array<i64: 2, 3>} : (tensor<5x6xf64>) -> tensor<2x2xf64>",
     "tensor<2x2xf64>", 2},
    {"slice_negative_strides", "%a: tensor<5x6xf64>" P,
     "%y = dist.slice %a {starts = array<i64: 4, 5>, limits = array<i64: -1, "
     "0>, strides = array<i64: -2, -1>} : (tensor<5x6xf64>) -> tensor<3x5xf64>",
     "tensor<3x5xf64>", 2},
    {"split_partly_used", "%a: tensor<2x6xf64>" P,
     "%s:3 = dist.split %a {axis = 1 : i64, sizes = array<i64: 1, 2, 3>} : "
     "(tensor<2x6xf64>) -> (tensor<2x1xf64>, tensor<2x2xf64>, "
     "tensor<2x3xf64>)\n"
     "%y = dist.mul %s#2, %s#0 : (tensor<2x3xf64>, tensor<2x1xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"pad_interior", "%a: tensor<2x3xf64>" P,
     "%y = dist.pad %a {low = array<i64: 1, 0>, high = array<i64: 0, 2>, "
     "interior = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<4x7xf64>",
     "tensor<4x7xf64>", 2},
    {"take_axis1",
     "%t: tensor<3x5xf64>" P
     ", %i: tensor<2xi64> {dist.role = \"data\", dist.bound = 5 : i64}",
     "%y = dist.take %t, %i {axis = 1 : i64} : (tensor<3x5xf64>, "
     "tensor<2xi64>) -> tensor<3x2xf64>",
     "tensor<3x2xf64>", 2},
    {"expand", "%a: tensor<3x1xf64>" P,
     "%y = dist.expand %a {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf64>) -> "
     "tensor<2x3x4xf64>",
     "tensor<2x3x4xf64>", 3},
    {"reduce_sum_keepdims", "%a: tensor<2x3x4xf64>" P,
     "%y = dist.reduce_sum %a {axes = array<i64: 0, -1>, keepdims} : "
     "(tensor<2x3x4xf64>) -> tensor<1x3x1xf64>",
     "tensor<1x3x1xf64>", 3},
    {"reduce_mean", "%a: tensor<2x3x4xf64>" P,
     "%y = dist.reduce_mean %a {axes = array<i64: 1>} : (tensor<2x3x4xf64>) -> "
     "tensor<2x4xf64>",
     "tensor<2x4xf64>", 2},

    // Losses.
    {"cross_entropy_weighted_ignore",
     "%x: tensor<4x5xf64>" P
     ", %l: tensor<4xi64> {dist.role = \"data\", dist.bound = 5 : i64}"
     ", %c: tensor<5xf64>" D,
     "%e = dist.exp %c : (tensor<5xf64>) -> tensor<5xf64>\n"
     "%y = dist.cross_entropy %x, %l, %e {ignore_index = 2 : i64} : "
     "(tensor<4x5xf64>, tensor<4xi64>, tensor<5xf64>) -> tensor<f64>",
     "tensor<f64>", 0},
    {"cross_entropy_none_class_axis1",
     "%x: tensor<2x5x3xf64>" P
     ", %l: tensor<2x3xi64> {dist.role = \"data\", dist.bound = 5 : i64}",
     "%y = dist.cross_entropy %x, %l {class_axis = 1 : i64, reduction = "
     "#dist<loss_reduction none>} : (tensor<2x5x3xf64>, tensor<2x3xi64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"cross_entropy_sum",
     "%x: tensor<4x5xf64>" P
     ", %l: tensor<4xi64> {dist.role = \"data\", dist.bound = 5 : i64}",
     "%y = dist.cross_entropy %x, %l {reduction = #dist<loss_reduction sum>} : "
     "(tensor<4x5xf64>, tensor<4xi64>) -> tensor<f64>",
     "tensor<f64>", 0},
    {"mse_loss", "%p: tensor<2x3xf64>" P ", %t: tensor<2x3xf64>" P,
     "%y = dist.mse_loss %p, %t : (tensor<2x3xf64>, tensor<2x3xf64>) -> "
     "tensor<f64>",
     "tensor<f64>", 0},

    // Convolution and pooling.
    {"conv_grouped_strided",
     "%x: tensor<1x2x5x5xf64>" P ", %w: tensor<4x1x3x3xf64>" P
     ", %b: tensor<4xf64>" P,
     "%y = dist.conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: "
     "1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64} : "
     "(tensor<1x2x5x5xf64>, tensor<4x1x3x3xf64>, tensor<4xf64>) -> "
     "tensor<1x4x3x3xf64>",
     "tensor<1x4x3x3xf64>", 4},
    {"max_pool", "%x: tensor<1x2x4x4xf64>" P,
     "%y = dist.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = "
     "array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: "
     "1, 1>} : (tensor<1x2x4x4xf64>) -> tensor<1x2x2x2xf64>",
     "tensor<1x2x2x2xf64>", 4},
    {"avg_pool_padded", "%x: tensor<1x2x4x4xf64>" P,
     "%y = dist.avg_pool %x {kernel_shape = array<i64: 3, 3>, strides = "
     "array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad} : "
     "(tensor<1x2x4x4xf64>) -> tensor<1x2x2x2xf64>",
     "tensor<1x2x2x2xf64>", 4},
    {"global_avg_pool", "%x: tensor<2x3x4x4xf64>" P,
     "%y = dist.global_avg_pool %x : (tensor<2x3x4x4xf64>) -> "
     "tensor<2x3x1x1xf64>",
     "tensor<2x3x1x1xf64>", 4},

    // Second order: the backward helpers differentiated themselves.
    {"relu_grad", "%g: tensor<2x3xf64>" P ", %x: tensor<2x3xf64>" P,
     "%y = dist.relu_grad %g, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"tanh_grad", "%g: tensor<2x3xf64>" P ", %s: tensor<2x3xf64>" P,
     "%y = dist.tanh_grad %g, %s : (tensor<2x3xf64>, tensor<2x3xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"sigmoid_grad", "%g: tensor<2x3xf64>" P ", %s: tensor<2x3xf64>" P,
     "%y = dist.sigmoid_grad %g, %s : (tensor<2x3xf64>, tensor<2x3xf64>) -> "
     "tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"softmax_grad", "%g: tensor<2x4xf64>" P ", %s: tensor<2x4xf64>" P,
     "%y = dist.softmax_grad %g, %s {scale = 0.5 : f64} : (tensor<2x4xf64>, "
     "tensor<2x4xf64>) -> tensor<2x4xf64>",
     "tensor<2x4xf64>", 2},
    {"log_softmax_grad", "%g: tensor<2x4xf64>" P ", %s: tensor<2x4xf64>" P,
     "%y = dist.log_softmax_grad %g, %s : (tensor<2x4xf64>, tensor<2x4xf64>) "
     "-> tensor<2x4xf64>",
     "tensor<2x4xf64>", 2},
    {"mse_loss_grad",
     "%g: tensor<f64>" P ", %p: tensor<2x3xf64>" P ", %t: tensor<2x3xf64>" P,
     "%y = dist.mse_loss_grad %g, %p, %t : (tensor<f64>, tensor<2x3xf64>, "
     "tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
    {"take_grad",
     "%g: tensor<2x4xf64>" P
     ", %i: tensor<2xi64> {dist.role = \"data\", dist.bound = 3 : i64}",
     "%y = dist.take_grad %g, %i {dim_size = 3 : i64} : (tensor<2x4xf64>, "
     "tensor<2xi64>) -> tensor<3x4xf64>",
     "tensor<3x4xf64>", 2},
    {"conv_grad_input",
     "%g: tensor<1x4x3x3xf64>" P ", %w: tensor<4x1x3x3xf64>" P,
     "%y = dist.conv_grad_input %g, %w {strides = array<i64: 2, 2>, pads = "
     "array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64, "
     "input_shape = array<i64: 1, 2, 5, 5>} : (tensor<1x4x3x3xf64>, "
     "tensor<4x1x3x3xf64>) -> tensor<1x2x5x5xf64>",
     "tensor<1x2x5x5xf64>", 4},
    {"conv_grad_filter",
     "%g: tensor<1x4x3x3xf64>" P ", %x: tensor<1x2x5x5xf64>" P,
     "%y = dist.conv_grad_filter %g, %x {strides = array<i64: 2, 2>, pads = "
     "array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64, "
     "filter_shape = array<i64: 4, 1, 3, 3>} : (tensor<1x4x3x3xf64>, "
     "tensor<1x2x5x5xf64>) -> tensor<4x1x3x3xf64>",
     "tensor<4x1x3x3xf64>", 4},
    {"avg_pool_grad", "%g: tensor<1x2x2x2xf64>" P,
     "%y = dist.avg_pool_grad %g {kernel_shape = array<i64: 3, 3>, strides = "
     "array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad, "
     "input_shape = array<i64: 1, 2, 4, 4>} : (tensor<1x2x2x2xf64>) -> "
     "tensor<1x2x4x4xf64>",
     "tensor<1x2x4x4xf64>", 4},
    {"sgd_update", "%p: tensor<2x3xf64>" P ", %g: tensor<2x3xf64>" P,
     "%y = dist.sgd_update %p, %g {lr = 0.25 : f64} : (tensor<2x3xf64>, "
     "tensor<2x3xf64>) -> tensor<2x3xf64>",
     "tensor<2x3xf64>", 2},
};

#undef P
#undef D

void PrintTo(const OpCase &c, std::ostream *os) { *os << c.name; }

class OpGradientTest : public ::testing::TestWithParam<OpCase> {};

TEST_P(OpGradientTest, MatchesFiniteDifferences) {
  auto context = makeContext();
  std::string program = makeProgram(GetParam());
  SCOPED_TRACE(program);
  expectGradientsMatch(checkGradients(*context, program));
}

INSTANTIATE_TEST_SUITE_P(AllRules, OpGradientTest,
                         ::testing::ValuesIn(kOpCases),
                         [](const ::testing::TestParamInfo<OpCase> &info) {
                           return std::string(info.param.name);
                         });

//===----------------------------------------------------------------------===//
// Communication on placed values
//===----------------------------------------------------------------------===//

struct PlacedCase {
  const char *name;
  /// Type of the parameter `%a` and of the communication result `%y`.
  const char *input, *output;
  /// The op computing `%y` from `%a`.
  const char *op;
};

const PlacedCase kPlacedCases[] = {
    {"send", "tensor<2x3xf64, #dist.devices<[0:2]>>",
     "tensor<2x3xf64, #dist.devices<[2:4]>>", "%y = dist.send %a to [2:4]"},
    {"all_reduce_sum", "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "%y = dist.all_reduce %a sum groups [[0, 1], [2, 3]]"},
    {"all_reduce_avg", "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "%y = dist.all_reduce %a avg groups [[0, 2], [1, 3]]"},
    {"all_gather", "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "tensor<2x6xf64, #dist.devices<[0:4]>>",
     "%y = dist.all_gather %a dim 1 groups [[0, 1], [2, 3]]"},
    {"reduce_scatter_sum", "tensor<4x3xf64, #dist.devices<[0:4]>>",
     "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "%y = dist.reduce_scatter %a sum dim 0 groups [[1, 0], [2, 3]]"},
    {"reduce_scatter_avg", "tensor<4x3xf64, #dist.devices<[0:4]>>",
     "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "%y = dist.reduce_scatter %a avg dim 0 groups [[0, 1], [2, 3]]"},
    {"all_to_all", "tensor<4x6xf64, #dist.devices<[0:2]>>",
     "tensor<2x12xf64, #dist.devices<[0:2]>>",
     "%y = dist.all_to_all %a split_dim 0 concat_dim 1 groups [[0, 1]]"},
    {"broadcast", "tensor<2x3xf64, #dist.devices<[1, 3]>>",
     "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "%y = dist.broadcast %a root 1 groups [[0, 1], [2, 3]]"},
    {"reduce_sum", "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "tensor<2x3xf64, #dist.devices<[0, 2]>>",
     "%y = dist.reduce %a sum root 0 groups [[0, 1], [2, 3]]"},
    {"reduce_avg", "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "tensor<2x3xf64, #dist.devices<[0, 2]>>",
     "%y = dist.reduce %a avg root 0 groups [[0, 1], [2, 3]]"},
    {"scatter", "tensor<4x3xf64, #dist.devices<[0, 2]>>",
     "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "%y = dist.scatter %a root 0 dim 0 groups [[0, 1], [2, 3]]"},
    {"gather", "tensor<2x3xf64, #dist.devices<[0:4]>>",
     "tensor<2x6xf64, #dist.devices<[0, 2]>>",
     "%y = dist.gather %a root 0 dim 1 groups [[0, 1], [2, 3]]"},
};

void PrintTo(const PlacedCase &c, std::ostream *os) { *os << c.name; }

class CollectiveGradientTest : public ::testing::TestWithParam<PlacedCase> {};

TEST_P(CollectiveGradientTest, MatchesFiniteDifferences) {
  const PlacedCase &c = GetParam();
  std::string in = c.input, out = c.output;
  // The loss stays on the devices of `%y`; the check sums it over them, as
  // the seed of 1 on each of them does.
  std::string scalar = "tensor<f64" + out.substr(out.find(","));
  std::string program =
      "dist.mesh @world shape = [4] axes = [\"d\"]\n"
      "func.func @f(%a: " +
      in + " {dist.role = \"parameter\"}, %r: " + out +
      " {dist.role = \"data\"}) -> " + scalar +
      " attributes {dist.mesh = @world} {\n  " + c.op + " : " + in + " -> " +
      out + "\n  %weighted = dist.mul %y, %r : (" + out + ", " + out + ") -> " +
      out +
      "\n  %loss = dist.reduce_sum %weighted {axes = array<i64: 0, 1>} : (" +
      out + ") -> " + scalar + "\n  return %loss : " + scalar + "\n}\n";
  SCOPED_TRACE(program);
  auto context = makeContext();
  expectGradientsMatch(checkGradients(*context, program));
}

INSTANTIATE_TEST_SUITE_P(AllCollectives, CollectiveGradientTest,
                         ::testing::ValuesIn(kPlacedCases),
                         [](const ::testing::TestParamInfo<PlacedCase> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
