func.func private @near_max(tensor<4xf32, #dist.devices<[9223372036854775806, 9223372036854775807]>>)

func.func private @run_to_max(tensor<4xf32, #dist.devices<[9223372036854775804:9223372036854775807, 9223372036854775807]>>)

func.func private @big_step(tensor<4xf32, #dist.devices<[9223372036854775800:9223372036854775807:5]>>)

func.func private @near_max_step(tensor<4xf32, #dist.devices<[9223372036854775000:9223372036854775807:500]>>)

func.func private @huge_step(tensor<4xf32, #dist.devices<[0:9223372036854775807:4611686018427387904]>>)

dist.mesh @far shape = [2] axes = ["x"] devices = [0, 4294967296]

func.func @on_far_device(%x: tensor<4xf32, #dist.devices<[4294967296]>>) -> tensor<4xf32, #dist.devices<[4294967296]>> attributes {dist.mesh = @far} {
  %0 = dist.relu %x : (tensor<4xf32, #dist.devices<[4294967296]>>) -> tensor<4xf32, #dist.devices<[4294967296]>>
  return %0 : tensor<4xf32, #dist.devices<[4294967296]>>
}
