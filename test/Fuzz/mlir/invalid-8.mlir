dist.mesh @m shape = [2, 2] axes = ["dp", "dp"]
