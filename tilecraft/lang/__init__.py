"""What users touch: decorators, buffers, blocks, math, copy, pipes, semaphores, grid/core.

Objects here are descriptions created by kernel-scope Python. Thread bodies are never run as
Python: the front end compiles them, so the functions a thread calls (``ttl.copy``,
``ttl.math.exp``, ``cb.reserve``) are stubs whose only host-side behaviour is a clear error.
"""
