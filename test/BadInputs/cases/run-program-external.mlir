func.func private @main(tensor<4xf32>) -> tensor<4xf32>
