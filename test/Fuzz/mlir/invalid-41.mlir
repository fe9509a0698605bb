func.func @slice_bounds(%a: tensor<4x3xf32>) {
  %0 = dist.slice %a {starts = array<i64: 0, 0>, limits = array<i64: 5, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xf32>) -> tensor<5x3xf32>
  return
}
