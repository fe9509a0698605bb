dist.mesh @m shape = [2] axes = [1]
