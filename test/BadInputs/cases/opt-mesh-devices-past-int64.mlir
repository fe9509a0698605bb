dist.mesh @m shape = [1] axes = ["dp"] devices = [9223372036854775808]
