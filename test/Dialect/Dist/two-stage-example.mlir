// The bundled two-stage example verifies and refines; moving one operand of
// a compute op to another device set is an error at that op's location.
// RUN: dist-opt %distir_src/examples/two-stage-mlp.mlir --dist-infer-shapes | FileCheck %s --check-prefix=OK
// RUN: sed -e 's/32x16xf32, #dist.devices<\[2:4\]>/32x16xf32, #dist.devices<[0:2]>/g' %distir_src/examples/two-stage-mlp.mlir > %t.moved.mlir
// RUN: not dist-opt %t.moved.mlir 2>&1 | FileCheck %s --check-prefix=MOVED

// OK: dist.all_reduce %{{.*}} sum groups {{\[\[}}0:2]]
// OK: dist.send %{{.*}} to [2:4] : tensor<8x32xf32, #dist.devices<[0:2]>> -> tensor<8x32xf32, #dist.devices<[2:4]>>
// OK: -> tensor<8x16xf32, #dist.devices<[2:4]>>

// MOVED: moved.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'dist.matmul' op needs all operands and results on one device set, but operand #1 is on #dist.devices<[0:2]> while earlier values are on #dist.devices<[2:4]>
