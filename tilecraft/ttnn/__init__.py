"""A simulated ttnn: what ``import ttnn`` gives a TT-Lang program run by tilecraft.

Programs written for the published TT-Lang 1.1 use a slice of ttnn on the host: opening
devices and meshes, moving torch tensors to and from them, and a few ops around their kernels.
This package provides that slice (and the common ops beyond it) on the CPU, with values
rounded exactly as the device stores them (``tilecraft.numerics``). A tensor's values live in
one torch tensor, ``Tensor.storage``, which the simulator reads and writes in place.

The simulated system has 4 chips unless ``tilecraft run --devices N`` (or ``TILECRAFT_DEVICES``)
says otherwise, as the published TT-Lang simulator has; ``GetNumAvailableDevices()`` reports it.
"""

from . import tensor_methods  # noqa: F401  (binds operators and reshape on Tensor)
from .conversion import as_tensor, copy_host_to_device_tensor, from_device, from_torch, to_device, to_torch
from .compute_config import (BlackholeComputeKernelConfig, DeviceComputeKernelConfig,
                             MatmulMultiCoreReuseMultiCast1DProgramConfig, MatmulMultiCoreReuseMultiCastProgramConfig,
                             MatmulMultiCoreReuseProgramConfig, WormholeComputeKernelConfig,
                             init_device_compute_kernel_config)
from .cores import CoreCoord, CoreGrid, CoreRange, CoreRangeSet, core_range_set_to_core_grid
from .creation import (allocate_tensor_on_device, empty, empty_like, full, full_like, ones, ones_like, rand,
                       zeros, zeros_like)
from .datatype import (DataType, bfloat4_b, bfloat8_b, bfloat16, float16, float32, int32, uint8, uint16,
                       uint32)
from .device import Arch, Device, GetNumAvailableDevices, close_device, open_device, simulated_devices
from .descriptors import (NOC, NOC_MODE, CBDescriptor, CBFormatDescriptor, ComputeConfigDescriptor, CoreType,
                          DataMovementConfigDescriptor, DataMovementProcessor, KernelBindings, KernelDescriptor,
                          ProgramDescriptor, ReaderConfigDescriptor, RuntimeArgs, SemaphoreDescriptor, TileDescriptor,
                          UnpackToDestMode, WriterConfigDescriptor)
from .fidelity import MathFidelity
from .generic import (TensorAccessorArgs, cb_descriptor_from_sharded_tensor, corerange_to_cores, generic_op,
                      num_cores_to_corerangeset, num_cores_to_corerangeset_in_subcoregrids, split_work_to_cores)
from .layout import ROW_MAJOR_LAYOUT, TILE_LAYOUT, TILE_SHAPE, TILE_SIZE, Layout, Shape
from .memory import (DRAM_MEMORY_CONFIG, L1_MEMORY_CONFIG, BufferType, MemoryConfig, ShardOrientation, ShardSpec,
                     TensorMemoryLayout)
from .mesh import (ConcatMeshToTensor, FabricConfig, MeshDevice, MeshShape, MeshToTensor,
                   ReplicateTensorToMesh, ShardTensor2dMesh, ShardTensorToMesh, TensorToMesh, close_mesh_device,
                   open_mesh_device, set_fabric_config)
from .ops import (Conv2dConfig, conv2d, determine_expected_group_norm_sharded_config_and_grid_size,
                  create_group_norm_input_mask, create_group_norm_weight_bias_rm, group_norm, avg_pool2d, fold, get_conv_output_dim, upsample, argmax, topk, softmax_in_place, scale_mask_softmax_in_place, layer_norm, rms_norm, rms_norm_post_all_gather, rms_norm_pre_all_gather, concat, copy, embedding, interleaved_to_sharded, pad, permute, reshard, sharded_to_interleaved,
                  slice, split, tilize, unsqueeze, unsqueeze_to_4D, untilize, view, UnaryOpType, UnaryWithParam, linear, clamp, eq, ge, gt, le, logical_and, logical_not, logical_or,
                  lt, maximum, minimum, ne, where, add_, mul_, multiply_, plus_one, abs, add, all_gather, all_reduce, clone, cos, divide, exp, floor_div, gelu, log, matmul, max,
                  mean, mul, multiply, neg, pow, reciprocal, relu, remainder, repeat, reshape, rsqrt, sigmoid, silu,
                  sin, softmax, sqrt, square, squeeze, sub, subtract, sum, tanh, to_layout, to_memory_config,
                  transpose, typecast)
from .primitives import PRIMITIVES, CollectivePrimitive, DevicePrimitive, Primitive, RuleTable, TensorType
from .lifetime import deallocate, reallocate
from .mesh_mapping import (MeshMapperConfig, PlacementReplicate, PlacementShard, create_mesh_mapper,
                           distribute)
from .queries import (get_arch_name, get_device_tensors, get_memory_config, get_num_devices, is_sharded,
                      synchronize_device)
from .sharding import ShardStrategy, create_sharded_memory_config, create_sharded_memory_config_
from . import cluster, experimental, transformer
from .ops.attention import SDPAProgramConfig
from .ops.collectives import GlobalSemaphore, create_global_semaphore
from .ops.kv_cache import fill_cache
from .ops.matmul import MinimalMatmulConfig
from .surface import namespace_or_error
from .tensor import Tensor
from .trace import begin_trace_capture, end_trace_capture, execute_trace, release_trace
from . import wheel_ops  # noqa: F401  (the ops' hosts on the wheel's kernels, run at --level cpp)

__all__ = [
    # tensors and conversion
    "Tensor", "from_torch", "to_torch", "to_device", "from_device",
    "rand", "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
    "allocate_tensor_on_device", "as_tensor", "copy_host_to_device_tensor", "deallocate", "reallocate",
    "get_device_tensors", "get_arch_name", "get_num_devices",
    # types
    "DataType", "bfloat16", "float32", "float16", "bfloat8_b", "bfloat4_b", "int32", "uint32", "uint16", "uint8",
    "Layout", "TILE_LAYOUT", "ROW_MAJOR_LAYOUT", "TILE_SIZE", "TILE_SHAPE", "Shape", "MathFidelity",
    "MemoryConfig", "BufferType", "TensorMemoryLayout", "ShardSpec", "ShardOrientation",
    "DRAM_MEMORY_CONFIG", "L1_MEMORY_CONFIG", "CoreCoord", "CoreRange", "CoreRangeSet", "CoreGrid",
    "core_range_set_to_core_grid", "ShardStrategy", "create_sharded_memory_config",
    # devices and meshes
    "Device", "Arch", "open_device", "close_device", "synchronize_device", "GetNumAvailableDevices",
    "begin_trace_capture", "end_trace_capture", "execute_trace", "release_trace",
    "simulated_devices", "get_memory_config", "is_sharded",
    "MeshShape", "MeshDevice", "open_mesh_device", "close_mesh_device", "FabricConfig", "set_fabric_config",
    "TensorToMesh", "ShardTensorToMesh", "ShardTensor2dMesh", "ReplicateTensorToMesh", "MeshToTensor",
    "ConcatMeshToTensor", "MeshMapperConfig", "PlacementShard", "PlacementReplicate", "create_mesh_mapper",
    "distribute", "cluster",
    # ops
    "add", "subtract", "sub", "multiply", "mul", "divide", "pow", "floor_div", "remainder", "matmul",
    "relu", "gelu", "silu", "sigmoid", "tanh", "exp", "log", "sqrt", "rsqrt", "reciprocal", "abs", "neg",
    "square", "sin", "cos", "softmax", "sum", "mean", "max",
    "transpose", "reshape", "squeeze", "repeat", "typecast", "to_layout", "to_memory_config", "clone",
    "all_reduce", "all_gather",
    # rearranging values, placements and layouts; embedding
    "permute", "concat", "slice", "split", "pad", "unsqueeze", "unsqueeze_to_4D", "view", "interleaved_to_sharded",
    "sharded_to_interleaved", "reshard", "tilize", "untilize", "copy", "embedding", "create_sharded_memory_config_",
    # attention (ttnn.transformer and ttnn.experimental hold the rest)
    "experimental", "transformer", "SDPAProgramConfig", "fill_cache", "create_global_semaphore", "GlobalSemaphore",
    # images in channels-last layout
    "upsample", "fold", "avg_pool2d", "get_conv_output_dim", "conv2d", "Conv2dConfig",
    # positions of the largest values; softmax in place
    "argmax", "topk", "softmax_in_place", "scale_mask_softmax_in_place",
    # normalisation
    "layer_norm", "rms_norm", "rms_norm_pre_all_gather", "rms_norm_post_all_gather", "group_norm",
    "create_group_norm_weight_bias_rm", "create_group_norm_input_mask",
    "determine_expected_group_norm_sharded_config_and_grid_size",
    # selection, comparison, in place
    "maximum", "minimum", "clamp", "where", "gt", "lt", "ge", "le", "eq", "ne", "logical_and", "logical_or",
    "logical_not", "add_", "mul_", "multiply_", "plus_one",
    # matmul and linear, with their compute kernel and program configs
    "linear", "UnaryOpType", "UnaryWithParam", "WormholeComputeKernelConfig", "BlackholeComputeKernelConfig",
    "DeviceComputeKernelConfig", "init_device_compute_kernel_config", "MatmulMultiCoreReuseProgramConfig",
    "MatmulMultiCoreReuseMultiCastProgramConfig", "MatmulMultiCoreReuseMultiCast1DProgramConfig", "MinimalMatmulConfig",
    # programs of hand-written kernels (the micro-op pattern), run on the kernel emulator
    "generic_op", "ProgramDescriptor", "KernelDescriptor", "KernelBindings", "CBDescriptor", "CBFormatDescriptor", "TileDescriptor",
    "SemaphoreDescriptor", "RuntimeArgs", "ReaderConfigDescriptor", "WriterConfigDescriptor",
    "DataMovementConfigDescriptor", "ComputeConfigDescriptor", "DataMovementProcessor", "NOC", "NOC_MODE",
    "CoreType", "UnpackToDestMode", "TensorAccessorArgs", "split_work_to_cores", "num_cores_to_corerangeset",
    "cb_descriptor_from_sharded_tensor", "corerange_to_cores", "num_cores_to_corerangeset_in_subcoregrids",
    # for the layers that register rules on the ops
    "Primitive", "DevicePrimitive", "CollectivePrimitive", "TensorType", "RuleTable", "PRIMITIVES",
]


def __getattr__(name: str) -> object:
    """A ttnn name tilecraft does not simulate: E0540 naming it (``surface.namespace_or_error``)."""
    return namespace_or_error("ttnn", name, globals())
