"""The intermediate representation: types, operations, printer/parser/verifier, passes, and the rules every layer below the front end shares (grid geometry, L1 budget, expression patterns)."""
