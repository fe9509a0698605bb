// A tensor whose byte size wraps int64 is refused by the verifier with one
// line; dist-sim used to report its 2^32 x 2^32 floats as "4 B (fits)".
// RUN: not dist-sim %s --cluster dgx-a100 2>&1 | FileCheck %s
// CHECK: error: 'dist.relu' op operand #0: element count of shape [4294967296, 4294967296] overflows int64 (a tensor holds at most 2^63-1 bytes)
// CHECK-NOT: fits

func.func @huge(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  %0 = dist.relu %x : (tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}
