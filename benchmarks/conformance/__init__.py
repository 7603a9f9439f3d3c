"""Differential conformance against the published TT-Lang simulator (tt-lang-sim 1.1.6).

``python -m benchmarks.conformance`` runs our conformance programs on both simulators and
compares them; see benchmarks/README.md and docs/architecture.md. This package must stay
importable by the reference's interpreter too (``surface.py`` and ``reference_launcher.py`` run
there), so nothing here imports tilecraft at module level.
"""
