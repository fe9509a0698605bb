// Elementwise ops, cast and constants on fixed inputs. Expected values are
// NumPy's (np.float32 arithmetic), printed with 7 significant digits; where
// libm and NumPy round the last f32 bit differently both are accepted.
// RUN: dist-run %s --entry binary | FileCheck %s --check-prefix=BINARY
// RUN: dist-run %s --entry unary | FileCheck %s --check-prefix=UNARY
// RUN: dist-run %s --entry select | FileCheck %s --check-prefix=SELECT
// RUN: dist-run %s --entry convert | FileCheck %s --check-prefix=CONVERT

// [2, 3] with [3]: the row broadcasts over the rows.
// BINARY: add: f32 [2, 3] = {{\[\[}}11, 22, 33], [14, 25, 36]]
// BINARY: sub: f32 [2, 3] = {{\[\[}}-9, -18, -27], [-6, -15, -24]]
// BINARY: mul: f32 [2, 3] = {{\[\[}}10, 40, 90], [40, 100, 180]]
// BINARY: div: f32 [2, 3] = {{\[\[}}0.1, 0.1, 0.1], [0.4, 0.25, 0.2]]
// BINARY: pow: f32 [2, 3] = {{\[\[}}1, 4, 9], [16, 25, 36]]
// BINARY: iadd: i64 [2, 2] = {{\[\[}}21, 23], [23, 25]]
// BINARY: idiv: i64 [2] = [-3, 3]
func.func @binary() -> (tensor<2x3xf32> {dist.name = "add"}, tensor<2x3xf32> {dist.name = "sub"},
                        tensor<2x3xf32> {dist.name = "mul"}, tensor<2x3xf32> {dist.name = "div"},
                        tensor<2x3xf32> {dist.name = "pow"}, tensor<2x2xi64> {dist.name = "iadd"},
                        tensor<2xi64> {dist.name = "idiv"}) {
  %a = dist.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = dist.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %two = dist.constant dense<2.0> : tensor<f32>
  %add = dist.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %sub = dist.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %mul = dist.mul %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %div = dist.div %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %pow = dist.pow %a, %two : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %i = dist.constant dense<[[1], [3]]> : tensor<2x1xi64>
  %j = dist.constant dense<[10, 11]> : tensor<2xi64>
  %iadd0 = dist.add %i, %j : (tensor<2x1xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %iadd = dist.add %iadd0, %j : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %n = dist.constant dense<[-7, 7]> : tensor<2xi64>
  %d = dist.constant dense<[2, 2]> : tensor<2xi64>
  %idiv = dist.div %n, %d : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %add, %sub, %mul, %div, %pow, %iadd, %idiv : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x2xi64>, tensor<2xi64>
}

// UNARY: neg: f32 [4] = [1, -0, -0.5, -2]
// UNARY: exp: f32 [4] = [0.367879{{[45]}}, 1, 1.648721, 7.389056]
// UNARY: log: f32 [3] = [-0.6931472, 0, 1.386294]
// UNARY: sqrt: f32 [3] = [0.7071068, 1, 2]
// UNARY: rsqrt: f32 [3] = [1.414214, 1, 0.5]
// UNARY: erf: f32 [4] = [-0.8427008, 0, 0.5204999, 0.9953223]
// UNARY: relu: f32 [4] = [0, 0, 0.5, 2]
// UNARY: tanh: f32 [4] = [-0.7615942, 0, 0.4621172, 0.9640276]
// UNARY: sigmoid: f32 [4] = [0.2689414, 0.5, 0.6224594, 0.880797]
// UNARY: gelu: f32 [4] = [-0.1586553, 0, 0.3457312, 1.9545]
// UNARY: gelu_tanh: f32 [4] = [-0.158808, 0, 0.345714, 1.954598]
// UNARY: dropout: f32 [4] = [-1, 0, 0.5, 2]
func.func @unary() -> (tensor<4xf32> {dist.name = "neg"}, tensor<4xf32> {dist.name = "exp"},
                       tensor<3xf32> {dist.name = "log"}, tensor<3xf32> {dist.name = "sqrt"},
                       tensor<3xf32> {dist.name = "rsqrt"}, tensor<4xf32> {dist.name = "erf"},
                       tensor<4xf32> {dist.name = "relu"}, tensor<4xf32> {dist.name = "tanh"},
                       tensor<4xf32> {dist.name = "sigmoid"}, tensor<4xf32> {dist.name = "gelu"},
                       tensor<4xf32> {dist.name = "gelu_tanh"}, tensor<4xf32> {dist.name = "dropout"}) {
  %x = dist.constant dense<[-1.0, 0.0, 0.5, 2.0]> : tensor<4xf32>
  %p = dist.constant dense<[0.5, 1.0, 4.0]> : tensor<3xf32>
  %neg = dist.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  %exp = dist.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %log = dist.log %p : (tensor<3xf32>) -> tensor<3xf32>
  %sqrt = dist.sqrt %p : (tensor<3xf32>) -> tensor<3xf32>
  %rsqrt = dist.rsqrt %p : (tensor<3xf32>) -> tensor<3xf32>
  %erf = dist.erf %x : (tensor<4xf32>) -> tensor<4xf32>
  %relu = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %tanh = dist.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %sigmoid = dist.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
  %gelu = dist.gelu %x : (tensor<4xf32>) -> tensor<4xf32>
  %gelu_tanh = dist.gelu %x {approximate = #dist<gelu_approximation tanh>} : (tensor<4xf32>) -> tensor<4xf32>
  %dropout = dist.dropout %x {ratio = 0.1 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %neg, %exp, %log, %sqrt, %rsqrt, %erf, %relu, %tanh, %sigmoid, %gelu, %gelu_tanh, %dropout : tensor<4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// The condition broadcasts along the rows; i1 and integer conditions.
// SELECT: picked: f32 [2, 2] = {{\[\[}}1, 2], [-1, -1]]
// SELECT: by_int: f32 [2] = [-1, 2]
func.func @select() -> (tensor<2x2xf32> {dist.name = "picked"}, tensor<2xf32> {dist.name = "by_int"}) {
  %cond = dist.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %x = dist.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = dist.constant dense<-1.0> : tensor<f32>
  %picked = dist.where %cond, %x, %y : (tensor<2x1xi1>, tensor<2xf32>, tensor<f32>) -> tensor<2x2xf32>
  %icond = dist.constant dense<[0, 5]> : tensor<2xi32>
  %by_int = dist.where %icond, %x, %y : (tensor<2xi32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %picked, %by_int : tensor<2x2xf32>, tensor<2xf32>
}

// Floats to integers truncate toward zero; anything to i1 tests for non-zero;
// f32 -> bf16 and f16 round to nearest even (0.1 is not exact in either).
// CONVERT: to_i32: i32 [4] = [-2, 0, 1, 3]
// CONVERT: to_i1: i1 [4] = [1, 1, 1, 1]
// CONVERT: to_bf16: bf16 [4] = [-2.5, -0.5, 1.5, 3]
// CONVERT: to_f16: f16 [1] = [0.09997559]
// CONVERT: from_i64: f64 [2] = [-3, 1e+15]
func.func @convert() -> (tensor<4xi32> {dist.name = "to_i32"}, tensor<4xi1> {dist.name = "to_i1"},
                         tensor<4xbf16> {dist.name = "to_bf16"}, tensor<1xf16> {dist.name = "to_f16"},
                         tensor<2xf64> {dist.name = "from_i64"}) {
  %x = dist.constant dense<[-2.5, -0.5, 1.5, 3.0]> : tensor<4xf32>
  %to_i32 = dist.cast %x {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %to_i1 = dist.cast %x {to = i1} : (tensor<4xf32>) -> tensor<4xi1>
  %to_bf16 = dist.cast %x {to = bf16} : (tensor<4xf32>) -> tensor<4xbf16>
  %tenth = dist.constant dense<0.1> : tensor<1xf32>
  %to_f16 = dist.cast %tenth {to = f16} : (tensor<1xf32>) -> tensor<1xf16>
  %i = dist.constant dense<[-3, 1000000000000000]> : tensor<2xi64>
  %from_i64 = dist.cast %i {to = f64} : (tensor<2xi64>) -> tensor<2xf64>
  return %to_i32, %to_i1, %to_bf16, %to_f16, %from_i64 : tensor<4xi32>, tensor<4xi1>, tensor<4xbf16>, tensor<1xf16>, tensor<2xf64>
}
