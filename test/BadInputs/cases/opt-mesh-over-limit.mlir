dist.mesh @m shape = [1048577] axes = ["dp"]
