// 0.81.1 api/compute/softmax.h: no functions of its own; it gathers what a softmax compute kernel
// needs (exp and recip).
#pragma once

#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/recip.h"
