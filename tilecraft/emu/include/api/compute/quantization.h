// 0.81.1 api/compute/quantization.h declares dequant_int8_tile, dequant_int8_tile_init, dequant_tile,
// dequant_tile_init, quant_int8_tile, quant_int8_tile_init, quant_tile, quant_tile_init,
// quant_uint8_tile_init, requant_int8_in_int8_out_tile, requant_int8_in_int8_out_tile_init,
// requant_int8_in_tile, requant_int8_in_tile_init, requant_int8_in_uint8_out_tile_init,
// requant_int8_tile, requant_int8_tile_init, requant_tile, requant_tile_init, requant_uint8_tile_init.
// None is modelled yet: the header exists because binary_ng's SFPU kernels include it beside the ops
// they call, and a kernel that calls one of these stops at compile time naming the call (E5002).
#pragma once
