dist.mesh @m shape = [2] axes = ["dp"] devices = [-1, 1]
