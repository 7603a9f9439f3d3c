"""The functional simulator: three machines on one shared core.

- ``language/``: the language simulator (``tilecraft run``): per-core device state and the
  protocol rules (state.py), the runtime that schedules a program's threads and records its
  values (engine.py), block expressions compiled for batches (exprprog.py), and what threads
  print (debug_print.py);
- ``fastforward/``: how phase 1 avoids stepping through every operation: loops advanced by whole
  periods (advance.py, periodic.py, which the cost model shares, and loop_plan.py, which proves
  which loops may be skipped) and one skeleton run per group of cores (core_groups.py);
- ``metal_level/``: the Metalium-level interpreter (``--level metal``): the lowered kernels'
  calls on page-granular buffers (metal_engine.py, metal_state.py), and the call trace the
  kernel-level cost model replays (metal_trace.py).

Shared by the language simulator and the interpreter: the thread code generator (codegen.py),
the scheduler and its deadlock diagnosis (scheduler.py, deadlock.py), the operation table
(op_table.py), the executable meaning of each block operation (tile_math.py), and the value
engine (``dataflow/``: the recorded dataflow graph and its evaluators). Beside them, for
``--numerics device`` and the accuracy columns: the device's block arithmetic (device_math.py, over
tilecraft/device_arith.py; sfpu_machine.py, the SFPU functions run as the LLK's code on the Tensix
machine), the accuracy of a run per fidelity (accuracy.py), and which emulator SFPU operation each lowered function is (emu_sfpu.py).
"""
