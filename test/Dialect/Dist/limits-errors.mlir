// RUN: dist-opt %s -split-input-file -verify-diagnostics
//
// The dialect's limits (docs/dialect/Dist.md): at most 2^20 devices in a
// device set, a mesh or the groups of a collective, checked before a range is
// expanded; a tensor of a dist op holds at most 2^63-1 bytes.

// expected-error@+1 {{more than 1048576 devices, the dialect's limit}}
func.func private @huge_range(tensor<4xf32, #dist.devices<[0:4611686018427387904]>>)

// -----

// A range up to 2^63-1: counted, not walked, and refused at once.
// expected-error@+1 {{more than 1048576 devices, the dialect's limit}}
func.func private @range_to_max(tensor<4xf32, #dist.devices<[4611686018427387904:9223372036854775807]>>)

// -----

// expected-error@+1 {{more than 1048576 devices, the dialect's limit}}
func.func private @many_runs(tensor<4xf32, #dist.devices<[0:1048576, 2000000]>>)

// -----

// expected-error@+1 {{device id -5 is negative}}
func.func private @negative_start(tensor<4xf32, #dist.devices<[-5:3]>>)

// -----

func.func @groups_too_many(%x: tensor<4xf32, #dist.devices<[0:4]>>) {
  // expected-error@+1 {{more than 1048576 devices, the dialect's limit}}
  %0 = dist.all_reduce %x sum groups [[0:1048576], [1048576:2097152]] : tensor<4xf32, #dist.devices<[0:4]>> -> tensor<4xf32, #dist.devices<[0:4]>>
  return
}

// -----

// expected-error@+1 {{'dist.mesh' op mesh has more than 1048576 devices, the dialect's limit}}
dist.mesh @huge shape = [1099511627776] axes = ["dp"]

// -----

// expected-error@+1 {{'dist.mesh' op mesh has more than 1048576 devices, the dialect's limit}}
dist.mesh @wraps shape = [4294967296, 4294967296, 4294967296] axes = ["a", "b", "c"]

// -----

func.func @bytes_overflow(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error@+1 {{'dist.relu' op operand #0: element count of shape [4294967296, 4294967296] overflows int64 (a tensor holds at most 2^63-1 bytes)}}
  %0 = dist.relu %x : (tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}

// -----

func.func @bytes_overflow_f32(%x: tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32> {
  // expected-error@+1 {{'dist.relu' op operand #0: byte size of shape [4611686018427387904] overflows int64 (a tensor holds at most 2^63-1 bytes)}}
  %0 = dist.relu %x : (tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32>
  return %0 : tensor<4611686018427387904xf32>
}
