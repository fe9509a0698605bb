func.func @mesh_not_symbol() attributes {dist.mesh = 3} {
  return
}
