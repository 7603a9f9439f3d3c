"""The language simulator (``tilecraft run``): a ProgramIR on its grid, every protocol rule checked."""
