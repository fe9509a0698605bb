dist.mesh @m shape = [0] axes = ["dp"]
