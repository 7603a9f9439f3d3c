// The compute-kernel API basics (0.81.1 api/compute/common.h): arguments, DST ownership, packing,
// reconfiguration, circular buffers and hardware start-up.
#pragma once

#include "api/compute/cb_api.h"
#include "api/compute/common_globals.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/reg_api.h"
#include "tc_emu/args.h"
#include "api/debug/assert.h"
#include "tc_emu/llk_api.h"
