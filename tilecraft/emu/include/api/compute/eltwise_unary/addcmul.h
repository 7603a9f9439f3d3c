// 0.81.1 api/compute/eltwise_unary/addcmul.h declares addcmul_tile, addcmul_tile_init. None is
// modelled yet: the header exists because ttnn's kernel_lib eltwise chain includes it with every op
// header of its op set, and a kernel that calls one of these stops at compile time naming the call
// (E5002).
#pragma once
