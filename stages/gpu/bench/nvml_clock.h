/* nvml_clock.h — the GPU's clock source for bench --cool-clock
 * (stages/gpu/policy/coolwait.h): the current SM clock read through NVML
 * (nvmlDeviceGetClockInfo, NVML_CLOCK_SM), its maximum
 * (nvmlDeviceGetMaxClockInfo), CLOCK_MONOTONIC, nanosleep.
 *
 * NVML is loaded at run time (dlopen "libnvidia-ml.so.1", the NVIDIA
 * driver's), and only when the option is on: bench has no link-time
 * dependency on it.  The CUDA device is mapped to the NVML device by its
 * PCI bus id (cuDeviceGetPCIBusId, nvmlDeviceGetHandleByPciBusId_v2).
 * Every NVML return value is checked.  build/bin/bench only.
 */
#ifndef MMRANK_NVML_CLOCK_H
#define MMRANK_NVML_CLOCK_H

#include <stddef.h>

#include <cuda.h>

#include "gpu/policy/coolwait.h"
#include "gpu/cuda/cudrv.h"

typedef struct nvml_clock nvml_clock;

#define NVML_LIB "libnvidia-ml.so.1"

/* Open NVML for CUDA device dev (driver functions d) and fill *src with
 * the clock source (its ctx the returned handle; src->max_mhz the device's
 * maximum SM clock); *bus the PCI bus id (busz bytes).  Returns the handle,
 * or NULL with why[] naming the library or the NVML call that failed. */
nvml_clock *nvml_clock_open(const cudrv *d, CUdevice dev, cool_source *src, char *bus,
                            size_t busz, char *why, size_t whylen);

/* nvmlShutdown and dlclose; returns 0, or -1 with why[]. */
int nvml_clock_close(nvml_clock *c, char *why, size_t whylen);

#endif
