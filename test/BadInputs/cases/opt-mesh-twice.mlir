dist.mesh @m shape = [2] axes = ["a"]
dist.mesh @m shape = [2] axes = ["b"]
