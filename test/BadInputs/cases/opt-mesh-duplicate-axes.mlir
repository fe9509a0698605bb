dist.mesh @m shape = [2, 2] axes = ["a", "a"]
