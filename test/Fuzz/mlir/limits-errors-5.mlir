dist.mesh @huge shape = [1099511627776] axes = ["dp"]
