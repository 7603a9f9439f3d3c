"""Python AST -> IR: kernel-scope evaluation, thread compilation, compile errors with spans."""
