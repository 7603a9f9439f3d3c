"""The value engine both simulation levels share: the recorded dataflow graph and its evaluators."""
