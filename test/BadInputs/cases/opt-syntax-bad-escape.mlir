func.func private @f() attributes {a = "\q"}
