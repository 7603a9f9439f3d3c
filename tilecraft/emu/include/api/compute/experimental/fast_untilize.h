// 0.81.1 api/compute/experimental/fast_untilize.h declares fast_untilize_block, fast_untilize_init,
// fast_untilize_init_impl, fast_untilize_init_skip_remap, fast_untilize_uninit. None is modelled
// yet: the header exists because ttnn's kernel_lib eltwise chain includes it with every op header
// of its op set, and a kernel that calls one of these stops at compile time naming the call
// (E5002).
#pragma once
