func.func @adam_step(%w: tensor<4xf32>, %s: tensor<2xf32>) {
  %0:3 = dist.adam_update %w, %w, %w, %w, %s {lr = 0.1 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}
