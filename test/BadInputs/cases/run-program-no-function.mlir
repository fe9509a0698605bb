dist.mesh @m shape = [2] axes = ["dp"]
