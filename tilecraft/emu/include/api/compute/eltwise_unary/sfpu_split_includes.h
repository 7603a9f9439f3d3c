// Conditional SFPU includes (0.81.1 api/compute/eltwise_unary/sfpu_split_includes.h): a host that
// chooses the SFPU ops by defines also defines SFPU_OP_<FAMILY>_INCLUDE for each header they need.
#pragma once

#ifdef SFPU_OP_ISINF_ISNAN_INCLUDE
#include "api/compute/eltwise_unary/isinf_isnan.h"
#endif
#ifdef SFPU_OP_ERF_ERFC_INCLUDE
#include "api/compute/eltwise_unary/erf_erfc.h"
#endif
#ifdef SFPU_OP_LOGICAL_NOT_INCLUDE
#include "api/compute/eltwise_unary/logical_not.h"
#endif
#ifdef SFPU_OP_EXP_INCLUDE
#include "api/compute/eltwise_unary/exp.h"
#endif
#ifdef SFPU_OP_GELU_INCLUDE
#include "api/compute/eltwise_unary/gelu.h"
#endif
#ifdef SFPU_OP_SQRT_INCLUDE
#include "api/compute/eltwise_unary/sqrt.h"
#endif
#ifdef SFPU_OP_RSQRT_INCLUDE
#include "api/compute/eltwise_unary/rsqrt.h"
#endif
#ifdef SFPU_OP_RECIP_INCLUDE
#include "api/compute/eltwise_unary/recip.h"
#endif
#ifdef SFPU_OP_CBRT_INCLUDE
#include "api/compute/eltwise_unary/cbrt.h"
#endif
#ifdef SFPU_OP_RELU_FAMILY_INCLUDE
#include "api/compute/eltwise_unary/relu.h"
#endif
#ifdef SFPU_OP_ELU_INCLUDE
#include "api/compute/eltwise_unary/elu.h"
#endif
#ifdef SFPU_OP_NEG_INCLUDE
#include "api/compute/eltwise_unary/negative.h"
#endif
#ifdef SFPU_OP_TRIG_FAMILY_INCLUDE
#include "api/compute/eltwise_unary/trigonometry.h"
#endif
#ifdef SFPU_OP_RSUB_INCLUDE
#include "api/compute/eltwise_unary/rsub.h"
#endif
#ifdef SFPU_OP_IDENTITY_INCLUDE
#include "api/compute/eltwise_unary/identity.h"
#endif
#ifdef SFPU_OP_TYPECAST_INCLUDE
#include "api/compute/eltwise_unary/typecast.h"
#endif
#ifdef SFPU_OP_BINOP_WITH_SCALAR_INCLUDE
#include "api/compute/eltwise_unary/binop_with_scalar.h"
#endif
#ifdef SFPU_OP_ROUND_FAMILY_INCLUDE
#include "api/compute/eltwise_unary/rounding.h"
#endif
#ifdef SFPU_OP_ACTIVATIONS_INCLUDE
#include "api/compute/eltwise_unary/activations.h"
#endif
#ifdef SFPU_OP_CLAMP_INCLUDE
#include "api/compute/eltwise_unary/clamp.h"
#endif
#ifdef SFPU_OP_THRESHOLD_INCLUDE
#include "api/compute/eltwise_unary/threshold.h"
#endif
#ifdef SFPU_OP_SOFTPLUS_INCLUDE
#include "api/compute/eltwise_unary/softplus.h"
#endif
#ifdef SFPU_OP_HARDTANH_INCLUDE
#include "api/compute/eltwise_unary/hardtanh.h"
#endif
#ifdef SFPU_OP_SELU_INCLUDE
#include "api/compute/eltwise_unary/selu.h"
#endif
#ifdef SFPU_OP_FILL_INCLUDE
#include "api/compute/eltwise_unary/fill.h"
#endif
#ifdef SFPU_OP_WHERE_INCLUDE
#include "api/compute/eltwise_unary/where.h"
#endif
#ifdef SFPU_OP_UNARY_COMP_INCLUDE
#include "api/compute/eltwise_unary/comp.h"
#endif
#ifdef SFPU_OP_LOG1P_INCLUDE
#include "api/compute/eltwise_unary/log1p.h"
#endif
#ifdef SFPU_OP_MISH_INCLUDE
#include "api/compute/eltwise_unary/mish.h"
#endif
#ifdef SFPU_OP_COMPUTE_KERNEL_API_INCLUDE
#include "api/compute/compute_kernel_api.h"
#endif
#ifdef SFPU_OP_RPOW_INCLUDE
#include "api/compute/eltwise_unary/rpow.h"
#endif
#ifdef SFPU_OP_TANHSHRINK_INCLUDE
#include "api/compute/eltwise_unary/tanhshrink.h"
#endif
#ifdef SFPU_OP_LERP_INCLUDE
#include "api/compute/eltwise_unary/lerp.h"
#endif
#ifdef SFPU_OP_BINARY_ATAN2_INCLUDE
#include "api/compute/atan2.h"
#endif
#ifdef SFPU_OP_BINARY_MAX_MIN_INCLUDE
#include "api/compute/binary_max_min.h"
#endif
#ifdef SFPU_OP_COPY_DEST_INCLUDE
#include "api/compute/copy_dest_values.h"
#endif
#ifdef SFPU_OP_BINARY_FMOD_INCLUDE
#include "api/compute/binary_fmod.h"
#endif
#ifdef SFPU_OP_BINARY_REMAINDER_INCLUDE
#include "api/compute/binary_remainder.h"
#endif
