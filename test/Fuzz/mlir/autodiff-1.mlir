func.func @embed(%table: tensor<10x4xf32> {dist.name = "table", dist.role = "parameter"},
                 %scale: tensor<4xf32> {dist.name = "scale", dist.role = "parameter"},
                 %unused: tensor<3xf32> {dist.name = "unused", dist.role = "parameter"},
                 %ids: tensor<2x3xi64> {dist.name = "ids", dist.role = "data", dist.bound = 10 : i64},
                 %labels: tensor<2xi64> {dist.name = "labels", dist.role = "data"})
    -> (tensor<2x3x4xf32> {dist.name = "features", dist.role = "output"}, tensor<f32> {dist.role = "loss"}) {
  %e = dist.take %table, %ids {dist.layer = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %m = dist.mul %e, %scale {dist.layer = 0 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %p = dist.reduce_sum %m {axes = array<i64: 1>, dist.layer = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %l = dist.cross_entropy %p, %labels {dist.layer = 1 : i64} : (tensor<2x4xf32>, tensor<2xi64>) -> tensor<f32>
  return %e, %l : tensor<2x3x4xf32>, tensor<f32>
}
