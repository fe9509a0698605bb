// RUN: dist-opt %s -split-input-file --dist-data-parallel=dp=4 -verify-diagnostics

// expected-error @+1 {{argument 1 (input): batch of 6 is not divisible by dp=4}}
func.func @batch(%w: tensor<8x8xf32> {dist.name = "w", dist.role = "parameter"},
                 %x: tensor<6x8xf32> {dist.name = "input", dist.role = "data"}) -> tensor<6x8xf32> {
  %y = dist.matmul %x, %w : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
  return %y : tensor<6x8xf32>
}

// -----

// expected-error @+1 {{data parallelism needs `dist.role` on the arguments}}
func.func @roles(%w: tensor<8x8xf32>, %x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = dist.matmul %x, %w : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{mesh @world has no axis "dp"}}
dist.mesh @world shape = [4] axes = ["tp"]
func.func @axis(%x: tensor<8x8xf32> {dist.role = "data"}) -> tensor<8x8xf32> {
  return %x : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{mesh @world has 2 devices along "dp", not 4}}
dist.mesh @world shape = [2] axes = ["dp"]
func.func @size(%x: tensor<8x8xf32> {dist.role = "data"}) -> tensor<8x8xf32> {
  return %x : tensor<8x8xf32>
}
