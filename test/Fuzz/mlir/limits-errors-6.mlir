dist.mesh @wraps shape = [4294967296, 4294967296, 4294967296] axes = ["a", "b", "c"]
