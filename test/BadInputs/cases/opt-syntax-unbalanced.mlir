module {
  func.func @mlp(%arg0: tensor<16x16xf32> {dist.name = "layers.0.weight", dist.role = "parameter"}, %arg1: tensor<16x16xf32> {dist.name = "layers.1.weight", dist.role = "parameter"}, %arg2: tensor<8x16xf32> {dist.name = "input", dist.role = "data"}, %arg3: tensor<8x16xf32> {dist.name = "target", dist.role = "data"}) -> (tensor<f32> {dist.name = "loss", dist.role = "loss"}) {
    %0 = dist.matmul %arg2, %arg0 {dist.layer = 0 : i64} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %1 = dist.relu %0 {dist.layer = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = dist.matmul %1, %arg1 {dist.layer = 1 : i64} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %3 = dist.relu %2 {dist.layer = 1 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = dist.mse_loss %3, %arg3 {dist.layer = 1 : i64} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<f32>
    return %4 : tensor<f32>
  }
