// The device profiler's kernel markers (0.81.1 api/debug/kernel_profiler.hpp) as a build without
// PROFILE_KERNEL defines them: every marker evaluates nothing. The JIT build includes this header
// into every kernel, so kernels use the markers without including it.
#pragma once

#define DeviceZoneScopedN(name) (void(name))
#define DeviceZoneScopedNIf(name, active) DeviceZoneScopedN(name)
#define DeviceZoneScopedMainN(name) (void(name))
#define DeviceZoneScopedMainChildN(name) (void(name))
#define DeviceZoneScopedSumN1(name) (void(name))
#define DeviceZoneScopedSumN2(name) (void(name))
#define DeviceZoneSetCounter(counter) (void(sizeof(counter)))
#define DeviceTimestampedData(data_id, data) (void(sizeof(data_id) + sizeof(data)))
#define DeviceRecordEvent(event_id) (void(sizeof(event_id)))
#define DeviceValidateProfiler(condition) (void(sizeof(condition)))
#define DeviceProfilerInit()
#define DeviceTraceOnlyProfilerInit()
#define DeviceIncrementTraceCount()
#define RECORD_NOC_EVENT_WITH_ADDR(type, local_addr, noc_addr, num_bytes, vc, posted, noc)
#define RECORD_NOC_EVENT_WITH_ID(type, local_addr, noc_id, addrgen, offset, num_bytes, vc, posted, noc)
#define RECORD_NOC_EVENT(type, posted, noc)
#define RECORD_SCOPED_LOCK_EVENT(event_type, locked_address_base, num_bytes)
#define StartPerfCounters()
#define StopPerfCounters()
#define RecordPerfCounters()
