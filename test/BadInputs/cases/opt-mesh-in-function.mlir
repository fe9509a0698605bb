func.func @f() {
  dist.mesh @m shape = [2] axes = ["a"]
  return
}
