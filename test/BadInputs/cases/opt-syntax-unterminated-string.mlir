func.func private @f() attributes {a = "abc}
