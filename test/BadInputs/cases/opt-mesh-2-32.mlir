dist.mesh @m shape = [4294967296] axes = ["dp"]
