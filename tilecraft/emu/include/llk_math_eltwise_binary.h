// The LLK's math-side eltwise binary header (0.81.1 tt-llk llk_lib/llk_math_eltwise_binary.h),
// present and empty: the emulator's compute API does not run on the LLK, and the kernels that
// include this header without calling into it (the reduce op's reduce_w_neg.cpp) need only the
// file. A kernel that does call an LLK function stops at compile time at that call, naming it.
#pragma once
