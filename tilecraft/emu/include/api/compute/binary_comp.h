// 0.81.1 api/compute/binary_comp.h declares eq_int_tile, eq_int_tile_dispatch, eq_int_tile_init,
// ge_int_tile, ge_int_tile_init, gt_int_tile, gt_int_tile_init, le_int_tile, le_int_tile_init,
// lt_int_tile, lt_int_tile_init, ne_int_tile, ne_int_tile_init, rel_int_tile_dispatch. None is
// modelled yet: the header exists because binary_ng's SFPU kernels include it beside the ops they
// call, and a kernel that calls one of these stops at compile time naming the call (E5002).
#pragma once
