// 0.81.1 api/compute/sub_int_sfpu.h declares rsub_int_tile, rsub_int_tile_init, sub_int_tile,
// sub_int_tile_init. None is modelled yet: the header exists because binary_ng's SFPU kernels include
// it beside the ops they call, and a kernel that calls one of these stops at compile time naming the
// call (E5002).
#pragma once
