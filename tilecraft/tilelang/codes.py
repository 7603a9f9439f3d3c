"""The TileLang translation's error codes (E0840-E0847; docs/tilelang.md lists what each refuses)
and the tile side every copy and buffer is a multiple of."""

TILE = 32

UNSUPPORTED = "E0840"      #: a TileLang construct outside the subset (T.atomic_add, T.alloc_local, ...)
NOT_TILE_ALIGNED = "E0841"  #: a copy or buffer whose extent or offset is not a multiple of 32
FRAGMENT_INDEX = "E0842"   #: indexing a buffer other than by the T.Parallel loop variables
KERNEL_SHAPE = "E0843"     #: no T.Kernel, or a grid that does not match the output blocks
LOOP_BOUND = "E0844"       #: a loop bound that is not known before the kernel runs
UNINITIALISED = "E0845"    #: a fragment read (or accumulated into) before it has a value
TENSOR_PARAM = "E0846"     #: a T.Tensor annotation missing or unsupported, or a launch that disagrees
STATEMENT = "E0847"        #: a statement a prim_func body does not take (if, while, ...)
