// Compatibility include of 0.81.1: Semaphore lives in api/semaphore.h.
#pragma once

#include "api/semaphore.h"
