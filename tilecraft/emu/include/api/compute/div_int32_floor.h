// 0.81.1 api/compute/div_int32_floor.h declares div_int32_floor_tile, div_int32_floor_tile_init,
// div_int32_trunc_tile, div_int32_trunc_tile_init. None is modelled yet: the header exists because
// binary_ng's SFPU kernels include it beside the ops they call, and a kernel that calls one of these
// stops at compile time naming the call (E5002).
#pragma once
