// 0.81.1 api/compute/layernorm.h: no functions of its own; it gathers what a layernorm compute
// kernel needs (the compute API and rsqrt).
#pragma once

#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_unary/rsqrt.h"
