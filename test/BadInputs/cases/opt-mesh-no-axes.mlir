dist.mesh @m shape = [2]
