func.func @pad_interior_overflow(%a: tensor<4xf32>) {
  %0 = dist.pad %a {low = array<i64: 0>, high = array<i64: 0>, interior = array<i64: 4611686018427387904>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}
