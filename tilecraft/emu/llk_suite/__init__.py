"""Tenstorrent's LLK test suite, run on tilecraft's Tensix machine instead of silicon.

The suite (``tt_metal/tt-llk/tests`` in the ttnn 0.81.1 wheel) is downloaded at test time and
run with its *own* pytest files, parametrization, stimuli and golden generators. Only two things
are ours (docs/emulator.md, "LLK test suite"):

* :mod:`.device` and the stand-in packages under ``standins/`` (``ttexalens``, ``tt_umd``): the
  suite's device-access library, answered by an in-process core whose L1 is a ``bytearray``;
* :mod:`.plugin`, a pytest plugin that replaces ``TestConfig``'s ELF build and ELF run with the
  Tensix machine's build and run (:mod:`.runner`).

Nothing from the suite is committed; :mod:`.suite_tree` fetches and unpacks it.
"""
