"""The ttnn operations, grouped by family; each is a primitive (see ``tilecraft.ttnn.primitives``)."""

from .collectives import all_gather, all_gather_p, all_reduce, all_reduce_p
from .data_movement import (clone, clone_p, repeat, repeat_p, reshape, reshape_p, squeeze, squeeze_p, to_layout,
                            to_layout_p, to_memory_config, to_memory_config_p, transpose, transpose_p, typecast,
                            typecast_p)
from .elementwise import (abs, abs_p, add, add_p, cos, cos_p, divide, divide_p, exp, exp_p, floor_div,
                          floor_div_p, gelu, gelu_p, log, log_p, mul, multiply, multiply_p, neg, neg_p, pow, pow_p,
                          reciprocal, reciprocal_p, relu, relu_p, remainder, remainder_p, rsqrt, rsqrt_p, sigmoid,
                          sigmoid_p, silu, silu_p, sin, sin_p, sqrt, sqrt_p, square, square_p, sub, subtract,
                          subtract_p, tanh, tanh_p)
from .activation import UnaryOpType, UnaryWithParam
from .matmul import linear, linear_p, matmul, matmul_p
from .reduction import (argmax, argmax_p, max, max_p, mean, mean_p, scale_mask_softmax_in_place, softmax, softmax_in_place,
                        softmax_p, sum, sum_p, topk, topk_p)
from .comparison import (clamp, clamp_p, eq, eq_p, ge, ge_p, gt, gt_p, le, le_p, logical_and, logical_and_p,
                         logical_not, logical_not_p, logical_or, logical_or_p, lt, lt_p, maximum, maximum_p,
                         minimum, minimum_p, ne, ne_p, where, where_p)
from .inplace import add_, mul_, multiply_, plus_one
from .embedding import embedding, embedding_p
from .memory_moves import (copy, interleaved_to_sharded, interleaved_to_sharded_p, reshard, reshard_p,
                           sharded_to_interleaved, sharded_to_interleaved_p, tilize, tilize_p, untilize, untilize_p)
from .shape_ops import (concat, concat_p, pad, pad_p, permute, permute_p, slice, slice_p, split, unsqueeze,
                        unsqueeze_to_4D, view)
from .normalization import (layer_norm, layer_norm_p, rms_norm, rms_norm_p, rms_norm_post_all_gather,
                            rms_norm_post_all_gather_p, rms_norm_pre_all_gather, rms_norm_pre_all_gather_p)
from .spatial import avg_pool2d, avg_pool2d_p, fold, fold_p, get_conv_output_dim, upsample, upsample_p
from .group_norm import (create_group_norm_input_mask, create_group_norm_weight_bias_rm,
                         determine_expected_group_norm_sharded_config_and_grid_size, group_norm, group_norm_p)
from .conv import Conv2dConfig, conv2d, conv2d_p
