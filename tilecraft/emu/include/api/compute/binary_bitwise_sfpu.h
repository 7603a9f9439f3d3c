// 0.81.1 api/compute/binary_bitwise_sfpu.h declares binary_bitwise_tile_init, bitwise_and_binary_tile,
// bitwise_or_binary_tile, bitwise_xor_binary_tile. None is modelled yet: the header exists because
// binary_ng's SFPU kernels include it beside the ops they call, and a kernel that calls one of these
// stops at compile time naming the call (E5002).
#pragma once
