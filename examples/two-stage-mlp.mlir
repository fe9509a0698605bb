// A hand-placed two-stage MLP on a 2 x 2 mesh: stage 0 (devices 0:2) splits
// its matmul over the contraction dimension and all-reduces the partial
// sums; the activations then go to stage 1 (devices 2:4), which runs the
// second layer as a data-parallel replica. Result shapes are left dynamic:
// `dist-opt --dist-infer-shapes` fills them in.
dist.mesh @stages shape = [2, 2] axes = ["pp", "tp"]

func.func @two_stage_mlp(
    %x: tensor<8x8xf32, #dist.devices<[0:2]>> {dist.name = "input", dist.role = "data"},
    %w1: tensor<8x32xf32, #dist.devices<[0:2]>> {dist.name = "layers.0.weight", dist.role = "parameter"},
    %w2: tensor<32x16xf32, #dist.devices<[2:4]>> {dist.name = "layers.1.weight", dist.role = "parameter"})
    -> (tensor<?x?xf32, #dist.devices<[2:4]>> {dist.name = "output", dist.role = "output"})
    attributes {dist.mesh = @stages} {
  %h = dist.matmul %x, %w1 {dist.layer = 0} : (tensor<8x8xf32, #dist.devices<[0:2]>>, tensor<8x32xf32, #dist.devices<[0:2]>>) -> tensor<?x?xf32, #dist.devices<[0:2]>>
  %s = dist.all_reduce %h sum groups [[0, 1]] {dist.layer = 0} : tensor<?x?xf32, #dist.devices<[0:2]>> -> tensor<?x?xf32, #dist.devices<[0:2]>>
  %r = dist.relu %s {dist.layer = 0} : (tensor<?x?xf32, #dist.devices<[0:2]>>) -> tensor<?x?xf32, #dist.devices<[0:2]>>
  %t = dist.send %r to [2:4] : tensor<?x?xf32, #dist.devices<[0:2]>> -> tensor<?x?xf32, #dist.devices<[2:4]>>
  %y = dist.matmul %t, %w2 {dist.layer = 1} : (tensor<?x?xf32, #dist.devices<[2:4]>>, tensor<32x16xf32, #dist.devices<[2:4]>>) -> tensor<?x?xf32, #dist.devices<[2:4]>>
  %z = dist.relu %y {dist.layer = 1} : (tensor<?x?xf32, #dist.devices<[2:4]>>) -> tensor<?x?xf32, #dist.devices<[2:4]>>
  return %z : tensor<?x?xf32, #dist.devices<[2:4]>>
}
