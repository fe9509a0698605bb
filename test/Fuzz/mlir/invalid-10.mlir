dist.mesh @m shape = [4] axes = ["dp"] devices = [0, 1, 2]
