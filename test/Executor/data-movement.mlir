// matmul and the data movement ops on fixed inputs (values checked with NumPy).
// RUN: dist-run %s --entry matmul | FileCheck %s --check-prefix=MATMUL
// RUN: dist-run %s --entry layout --print-values | FileCheck %s --check-prefix=LAYOUT
// RUN: dist-run %s --entry pieces | FileCheck %s --check-prefix=PIECES
// RUN: dist-run %s --entry gather_expand | FileCheck %s --check-prefix=GATHER

// a @ b, a^T @ a, a @ a^T, a batch of two against a shared matrix, and
// vector promotion.
// MATMUL: ab: f32 [2, 2] = {{\[\[}}58, 64], [139, 154]]
// MATMUL: ata: f32 [3, 3] = {{\[\[}}17, 22, 27], [22, 29, 36], [27, 36, 45]]
// MATMUL: aat: f32 [2, 2] = {{\[\[}}14, 32], [32, 77]]
// MATMUL: batched: f32 [2, 2, 2] = {{\[\[\[}}58, 64], [139, 154]], {{\[\[}}-58, -64], [-139, -154]]]
// MATMUL: vector: f32 [2] = [58, 64]
func.func @matmul() -> (tensor<2x2xf32> {dist.name = "ab"}, tensor<3x3xf32> {dist.name = "ata"},
                        tensor<2x2xf32> {dist.name = "aat"}, tensor<2x2x2xf32> {dist.name = "batched"},
                        tensor<2xf32> {dist.name = "vector"}) {
  %a = dist.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = dist.constant dense<[[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]> : tensor<3x2xf32>
  %ab = dist.matmul %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %ata = dist.matmul %a, %a {transpose_a} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %aat = dist.matmul %a, %a {transpose_b} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %pm = dist.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]]]> : tensor<2x2x3xf32>
  %batched = dist.matmul %pm, %b : (tensor<2x2x3xf32>, tensor<3x2xf32>) -> tensor<2x2x2xf32>
  %v = dist.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %vector = dist.matmul %v, %b : (tensor<3xf32>, tensor<3x2xf32>) -> tensor<2xf32>
  return %ab, %ata, %aat, %batched, %vector : tensor<2x2xf32>, tensor<3x3xf32>, tensor<2x2xf32>, tensor<2x2x2xf32>, tensor<2xf32>
}

// LAYOUT: transposed: f32 [3, 2] = {{\[\[}}1, 4], [2, 5], [3, 6]]
// LAYOUT: reshaped: f32 [3, 2] = {{\[\[}}1, 2], [3, 4], [5, 6]]
// LAYOUT: concatenated: f32 [2, 5] = {{\[\[}}1, 2, 3, 7, 8], [4, 5, 6, 9, 10]]
// LAYOUT: padded: f32 [3, 6] = {{\[\[}}0, 0, 0, 0, 0, 0], [0, 1, 0, 2, 0, 3], [0, 4, 0, 5, 0, 6]]
func.func @layout() -> (tensor<3x2xf32> {dist.name = "transposed"}, tensor<3x2xf32> {dist.name = "reshaped"},
                        tensor<2x5xf32> {dist.name = "concatenated"}, tensor<3x6xf32> {dist.name = "padded"}) {
  %a = dist.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %transposed = dist.transpose %a {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %reshaped = dist.reshape %a {shape = array<i64: -1, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %c = dist.constant dense<[[7.0, 8.0], [9.0, 10.0]]> : tensor<2x2xf32>
  %concatenated = dist.concat %a, %c {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %padded = dist.pad %a {low = array<i64: 1, 1>, high = array<i64: 0, 0>, interior = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<3x6xf32>
  return %transposed, %reshaped, %concatenated, %padded : tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x5xf32>, tensor<3x6xf32>
}

// x[1:, ::2], x[::-1, 3:0:-2] (limit -1: through the first element) and a split.
// PIECES: strided: f32 [1, 2] = {{\[\[}}5, 7]]
// PIECES: reversed: f32 [2, 2] = {{\[\[}}8, 6], [4, 2]]
// PIECES: head: f32 [2, 1] = {{\[\[}}1], [5]]
// PIECES: tail: f32 [2, 3] = {{\[\[}}2, 3, 4], [6, 7, 8]]
func.func @pieces() -> (tensor<1x2xf32> {dist.name = "strided"}, tensor<2x2xf32> {dist.name = "reversed"},
                        tensor<2x1xf32> {dist.name = "head"}, tensor<2x3xf32> {dist.name = "tail"}) {
  %x = dist.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %strided = dist.slice %x {starts = array<i64: 1, 0>, limits = array<i64: 2, 4>, strides = array<i64: 1, 2>} : (tensor<2x4xf32>) -> tensor<1x2xf32>
  %reversed = dist.slice %x {starts = array<i64: 1, 3>, limits = array<i64: -1, 0>, strides = array<i64: -1, -2>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  %head, %tail = dist.split %x {axis = 1 : i64, sizes = array<i64: 1, 3>} : (tensor<2x4xf32>) -> (tensor<2x1xf32>, tensor<2x3xf32>)
  return %strided, %reversed, %head, %tail : tensor<1x2xf32>, tensor<2x2xf32>, tensor<2x1xf32>, tensor<2x3xf32>
}

// An embedding lookup (negative ids wrap) and ONNX Expand.
// GATHER: embedded: f32 [2, 2, 2] = {{\[\[\[}}5, 6], [1, 2]], {{\[\[}}5, 6], [3, 4]]]
// GATHER: columns: f32 [3, 1] = {{\[\[}}2], [4], [6]]
// GATHER: expanded: f32 [2, 3, 2] = {{\[\[\[}}1, 1], [2, 2], [3, 3]], {{\[\[}}1, 1], [2, 2], [3, 3]]]
func.func @gather_expand() -> (tensor<2x2x2xf32> {dist.name = "embedded"}, tensor<3x1xf32> {dist.name = "columns"},
                               tensor<2x3x2xf32> {dist.name = "expanded"}) {
  %table = dist.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %ids = dist.constant dense<[[2, 0], [-1, 1]]> : tensor<2x2xi64>
  %embedded = dist.take %table, %ids : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
  %one = dist.constant dense<[1]> : tensor<1xi32>
  %columns = dist.take %table, %one {axis = 1 : i64} : (tensor<3x2xf32>, tensor<1xi32>) -> tensor<3x1xf32>
  %col = dist.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %expanded = dist.expand %col {shape = array<i64: 2, 1, 2>} : (tensor<3x1xf32>) -> tensor<2x3x2xf32>
  return %embedded, %columns, %expanded : tensor<2x2x2xf32>, tensor<3x1xf32>, tensor<2x3x2xf32>
}
