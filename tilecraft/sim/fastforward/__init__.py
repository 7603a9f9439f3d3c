"""Phase 1 without stepping through every operation: loops advanced by whole periods, groups of cores run once."""
