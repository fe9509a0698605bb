// A 4-layer MLP training step (SGD) written by hand in dist-autodiff's
// conventions: forward ops with dist.layer, backward ops with dist.layer and
// dist.phase = "backward", optimizer ops dist.phase = "optimizer".
func.func @mlp(%w0: tensor<8x8xf32> {dist.name = "layers.0.weight", dist.role = "parameter"},
               %w1: tensor<8x8xf32> {dist.name = "layers.1.weight", dist.role = "parameter"},
               %w2: tensor<8x8xf32> {dist.name = "layers.2.weight", dist.role = "parameter"},
               %w3: tensor<8x8xf32> {dist.name = "layers.3.weight", dist.role = "parameter"},
               %x: tensor<16x8xf32> {dist.name = "input", dist.role = "data"},
               %y: tensor<16x8xf32> {dist.name = "target", dist.role = "data"})
    -> (tensor<f32> {dist.name = "loss", dist.role = "loss"},
        tensor<8x8xf32> {dist.name = "layers.0.weight", dist.role = "updated_parameter"},
        tensor<8x8xf32> {dist.name = "layers.1.weight", dist.role = "updated_parameter"},
        tensor<8x8xf32> {dist.name = "layers.2.weight", dist.role = "updated_parameter"},
        tensor<8x8xf32> {dist.name = "layers.3.weight", dist.role = "updated_parameter"}) {
  %z0 = dist.matmul %x, %w0 {dist.layer = 0} : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %h0 = dist.relu %z0 {dist.layer = 0} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %z1 = dist.matmul %h0, %w1 {dist.layer = 1} : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %h1 = dist.relu %z1 {dist.layer = 1} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %z2 = dist.matmul %h1, %w2 {dist.layer = 2} : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %h2 = dist.relu %z2 {dist.layer = 2} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %z3 = dist.matmul %h2, %w3 {dist.layer = 3} : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %h3 = dist.relu %z3 {dist.layer = 3} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %loss = dist.mse_loss %h3, %y {dist.layer = 3} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<f32>

  %seed = dist.constant dense<1.0> : tensor<f32> {dist.phase = "backward"}
  %gh3 = dist.mse_loss_grad %seed, %h3, %y {dist.layer = 3, dist.phase = "backward"} : (tensor<f32>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %gz3 = dist.relu_grad %gh3, %z3 {dist.layer = 3, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %gw3 = dist.matmul %h2, %gz3 {transpose_a, dist.layer = 3, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %gh2 = dist.matmul %gz3, %w3 {transpose_b, dist.layer = 3, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %gz2 = dist.relu_grad %gh2, %z2 {dist.layer = 2, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %gw2 = dist.matmul %h1, %gz2 {transpose_a, dist.layer = 2, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %gh1 = dist.matmul %gz2, %w2 {transpose_b, dist.layer = 2, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %gz1 = dist.relu_grad %gh1, %z1 {dist.layer = 1, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %gw1 = dist.matmul %h0, %gz1 {transpose_a, dist.layer = 1, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %gh0 = dist.matmul %gz1, %w1 {transpose_b, dist.layer = 1, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %gz0 = dist.relu_grad %gh0, %z0 {dist.layer = 0, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %gw0 = dist.matmul %x, %gz0 {transpose_a, dist.layer = 0, dist.phase = "backward"} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>

  %n0 = dist.sgd_update %w0, %gw0 {lr = 0.01, dist.layer = 0, dist.phase = "optimizer"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %n1 = dist.sgd_update %w1, %gw1 {lr = 0.01, dist.layer = 1, dist.phase = "optimizer"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %n2 = dist.sgd_update %w2, %gw2 {lr = 0.01, dist.layer = 2, dist.phase = "optimizer"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %n3 = dist.sgd_update %w3, %gw3 {lr = 0.01, dist.layer = 3, dist.phase = "optimizer"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %loss, %n0, %n1, %n2, %n3 : tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
