// 0.81.1 api/compute/pack_untilize.h declares pack_untilize_block, pack_untilize_dest,
// pack_untilize_dest_init, pack_untilize_dest_init_impl, pack_untilize_init,
// pack_untilize_init_impl, pack_untilize_init_skip_remap, pack_untilize_uninit. None is modelled
// yet: the header exists because ttnn's kernel_lib eltwise chain includes it with every op header
// of its op set, and a kernel that calls one of these stops at compile time naming the call
// (E5002).
#pragma once
