// RUN: dist-opt %s -split-input-file --dist-infer-shapes -verify-diagnostics

// A conflict that only shows once shapes are refined is an error at the op.

func.func @conflict(%a: tensor<8xf32>, %b: tensor<4xf32>) -> tensor<?xf32> {
  %0 = dist.relu %b : (tensor<4xf32>) -> tensor<?xf32>
  // expected-error@+1 {{cannot broadcast shapes [8] and [4]}}
  %1 = dist.add %a, %0 : (tensor<8xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

func.func @matmul_conflict(%a: tensor<4x8xf32>, %b: tensor<6x2xf32>) -> tensor<?x?xf32> {
  %0 = dist.exp %b : (tensor<6x2xf32>) -> tensor<?x?xf32>
  // expected-error@+1 {{contracting dimensions differ}}
  %1 = dist.matmul %a, %0 : (tensor<4x8xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
