func.func @forward(%x: tensor<2x8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>,
                   %g: tensor<32xf32>, %tok: tensor<2x8xi64>, %table: tensor<100x32xf32>)
    -> (tensor<?x?x?xf32>, tensor<f32>) {
  %0 = dist.matmul %x, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<?x?x?xf32>
  %1 = dist.add %0, %b : (tensor<?x?x?xf32>, tensor<32xf32>) -> tensor<?x?x?xf32>
  %2 = dist.layer_norm %1, %g, %g : (tensor<?x?x?xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x?x?xf32>
  %3 = dist.reshape %2 {shape = array<i64: 2, 8, 4, -1>} : (tensor<?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %4 = dist.transpose %3 {permutation = array<i64: 0, 2, 1, 3>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %5 = dist.matmul %4, %4 {transpose_b} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %6 = dist.softmax %5 {causal} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %7 = dist.take %table, %tok : (tensor<100x32xf32>, tensor<2x8xi64>) -> tensor<?x?x?xf32>
  %8 = dist.slice %7 {starts = array<i64: 0, 0, 0>, limits = array<i64: 2, 8, 32>, strides = array<i64: 1, 1, 2>} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %9 = dist.concat %2, %8 {axis = 2} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %10 = dist.cross_entropy %9, %tok : (tensor<?x?x?xf32>, tensor<2x8xi64>) -> tensor<f32>
  return %9, %10 : tensor<?x?x?xf32>, tensor<f32>
}
