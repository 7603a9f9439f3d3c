"""Kernels the PyKernel front-end tests compile (a real file: kernels are read with inspect)."""

from tilecraft.pykernel import *

TILE_BYTES = 2048  # a module constant: folded into the kernels that use it


@reader_thread()
def control_flow(cb: CircularBuffer, n, first, flag: CompileTimeValue):
    total: int = 0
    for i in range(first, first + n):
        if i % 2 == 0 and i != 4:
            total += i // 2
        else:
            total = total - 1
        if total > 100:
            break
    if flag:
        total += TILE_BYTES
    else:
        total = 0
    last = total if n > 0 else first
    cb_reserve_back(cb, last)


@compute_thread()
def templated(cb_a: CircularBuffer, cb_b: CircularBuffer, cb_out: CircularBuffer):
    compute_kernel_hw_startup[SrcOrder.Reverse](cb_a, cb_b, cb_out)
    matmul_init(cb_a, cb_b)
    fill_tile(0, 0.5)
    exp_tile(0, VectorMode.RC)
    pack_tile(0, cb_out)


@writer_thread()
def accessors(cb: CircularBuffer, addr, count):
    args = TensorAccessorArgs(1)
    s = TensorAccessor(args, addr, get_tile_size(cb))
    offset = get_arg_val(int, 0)
    common = get_common_arg_val(1)
    for i in range(count):
        noc_async_write_page(i + offset + common, s, get_read_ptr(cb))
    noc_async_write_barrier()


@writer_thread()
def semaphores(cb: CircularBuffer, sem_id, count):
    sem_addr = get_semaphore(sem_id)
    noc_semaphore_wait(sem_addr, count)
    noc_semaphore_set(sem_addr, 0)
    remote = get_noc_addr(1, 1, sem_addr)
    noc_semaphore_inc(remote, 1)


@reader_thread()
def loop_variables(cb: CircularBuffer, n):
    for i in range(n - 1, -1, -1):  # counts down past zero
        cb_reserve_back(cb, i)
    for j in range(3):
        j = j * 2  # does not change the iterations
    cb_push_back(cb, j)  # the last value: 4


@ttkernel_compile(kernel_type="compute")
def generic_compute(cb_in: CircularBuffer, cb_out: CircularBuffer):
    init_sfpu(cb_in, cb_out)
