dist.mesh @m2 shape = [2, 2] axes = ["a", "b"]
dist.mesh @m3 shape = [2, 2, 2] axes = ["a", "b", "c"]

func.func @replicated(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>},
                      %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

func.func @matched_inner(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m2, [[], ["a"]]>},
                         %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["a"], []]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

func.func @unmatched_inner(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m2, [[], ["a"]]>},
                           %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["b"], []]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m2, [[], []]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

func.func @outer_inner(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m2, [["a"], ["b"]]>},
                       %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["b"], []]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m2, [["a"], []]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

func.func @full_mnk(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@m3, [["a"], ["c"]]>},
                    %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m3, [["c"], ["b"]]>})
    -> (tensor<8x32xf32> {dist.sharding = #dist.sharding<@m3, [["a"], ["b"]]>}) {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

func.func @gspmd_ffn(%x: tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["a"], ["b"]]>},
                     %w1: tensor<32x64xf32> {dist.sharding = #dist.sharding<@m2, [["a"], ["b"]]>},
                     %w2: tensor<64x32xf32> {dist.sharding = #dist.sharding<@m2, [["b"], ["a"]]>})
    -> (tensor<16x32xf32> {dist.sharding = #dist.sharding<@m2, [["a"], ["b"]]>}) {
  %h = dist.matmul %x, %w1 : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %r = dist.relu %h : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = dist.matmul %r, %w2 : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
