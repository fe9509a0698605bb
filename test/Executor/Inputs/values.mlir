// Small readable global tensors for the executor tests: `dist-run` itself
// writes them as .npy files with --output-dir.
func.func @main() -> (tensor<4x2xf32> {dist.name = "rows"},
                      tensor<2x2xf32> {dist.name = "pair"},
                      tensor<4xi64> {dist.name = "ids"},
                      tensor<4x1xf32> {dist.name = "column"}) {
  %rows = dist.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %pair = dist.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %ids = dist.constant dense<[3, 0, 7, 1]> : tensor<4xi64>
  %column = dist.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>
  return %rows, %pair, %ids, %column : tensor<4x2xf32>, tensor<2x2xf32>, tensor<4xi64>, tensor<4x1xf32>
}
