/* nvml_clock.c — see nvml_clock.h. */
#include "nvml_clock.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The few NVML declarations used (nvml.h, ABI-stable): a return code of 0
 * is NVML_SUCCESS; NVML_CLOCK_SM is 1 of nvmlClockType_t. */
typedef int nvml_ret;
typedef struct nvml_device_st *nvml_device;
enum { NVML_OK = 0, NVML_CLOCK_SM_ = 1 };

struct nvml_clock {
	void *lib;                 /* dlopen's */
	nvml_device dev;
	nvml_ret (*init)(void);                                      /* nvmlInit_v2 */
	nvml_ret (*shutdown)(void);                                  /* nvmlShutdown */
	const char *(*errstr)(nvml_ret);                             /* nvmlErrorString */
	nvml_ret (*bybus)(const char *, nvml_device *);              /* ..ByPciBusId_v2 */
	nvml_ret (*clock)(nvml_device, int, unsigned *);             /* nvmlDeviceGetClockInfo */
	nvml_ret (*maxclock)(nvml_device, int, unsigned *);          /* ..GetMaxClockInfo */
};

static int nv_fail(const nvml_clock *c, nvml_ret r, const char *what, char *why, size_t whylen)
{
	const char *s = c->errstr ? c->errstr(r) : NULL;
	snprintf(why, whylen, "%s (%s): %s (NVML error %d)", what, NVML_LIB, s ? s : "?", r);
	return -1;
}

static int nv_clock(void *ctx, unsigned *mhz, char *why, size_t whylen)
{
	nvml_clock *c = ctx;
	nvml_ret r = c->clock(c->dev, NVML_CLOCK_SM_, mhz);
	return r == NVML_OK ? 0 : nv_fail(c, r, "nvmlDeviceGetClockInfo(NVML_CLOCK_SM)", why, whylen);
}

static double nv_now(void *ctx)
{
	(void)ctx;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void nv_sleep(void *ctx, double ms)
{
	(void)ctx;
	struct timespec ts = { (time_t)(ms / 1e3), (long)(fmod(ms, 1e3) * 1e6) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* *fp = dlsym(c->lib, sym); -1 with why[] if it is missing */
static int sym(nvml_clock *c, const char *name, void *fp, char *why, size_t whylen)
{
	void *p = dlsym(c->lib, name);
	if (!p) {
		snprintf(why, whylen, "%s has no %s (a driver too old for --cool-clock?)", NVML_LIB,
		         name);
		return -1;
	}
	memcpy(fp, &p, sizeof p);
	return 0;
}

static int nv_resolve(nvml_clock *c, char *why, size_t whylen)
{
	return sym(c, "nvmlInit_v2", &c->init, why, whylen) ||
	       sym(c, "nvmlShutdown", &c->shutdown, why, whylen) ||
	       sym(c, "nvmlErrorString", &c->errstr, why, whylen) ||
	       sym(c, "nvmlDeviceGetHandleByPciBusId_v2", &c->bybus, why, whylen) ||
	       sym(c, "nvmlDeviceGetClockInfo", &c->clock, why, whylen) ||
	       sym(c, "nvmlDeviceGetMaxClockInfo", &c->maxclock, why, whylen) ? -1 : 0;
}

/* After dlopen: init, the device of bus id bus, its maximum SM clock. */
static int nv_start(nvml_clock *c, const char *bus, unsigned *max, char *why, size_t whylen)
{
	nvml_ret r = c->init();
	if (r != NVML_OK)
		return nv_fail(c, r, "nvmlInit_v2", why, whylen);
	r = c->bybus(bus, &c->dev);
	if (r != NVML_OK) {
		char what[96];
		snprintf(what, sizeof what, "nvmlDeviceGetHandleByPciBusId_v2(%s)", bus);
		nv_fail(c, r, what, why, whylen);
	} else if ((r = c->maxclock(c->dev, NVML_CLOCK_SM_, max)) != NVML_OK) {
		nv_fail(c, r, "nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM)", why, whylen);
	} else if (*max == 0) {
		snprintf(why, whylen, "nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM): 0 MHz");
		r = -1;
	}
	if (r != NVML_OK) {
		c->shutdown(); /* already failing: its own result adds nothing */
		return -1;
	}
	return 0;
}

nvml_clock *nvml_clock_open(const cudrv *d, CUdevice dev, cool_source *src, char *bus,
                            size_t busz, char *why, size_t whylen)
{
	CUresult cr = d->pcibusid(bus, (int)busz, dev);
	if (cr != CUDA_SUCCESS) {
		snprintf(why, whylen, "cuDeviceGetPCIBusId: %s", cudrv_name(d, cr));
		return NULL;
	}
	nvml_clock *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	c->lib = dlopen(NVML_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!c->lib) {
		const char *e = dlerror();
		snprintf(why, whylen, "cannot load %s (NVML, part of the NVIDIA driver): %s", NVML_LIB,
		         e ? e : "dlopen failed");
		free(c);
		return NULL;
	}
	unsigned max = 0;
	if (nv_resolve(c, why, whylen) || nv_start(c, bus, &max, why, whylen)) {
		dlclose(c->lib);
		free(c);
		return NULL;
	}
	*src = (cool_source){ nv_clock, nv_now, nv_sleep, c, max };
	return c;
}

int nvml_clock_close(nvml_clock *c, char *why, size_t whylen)
{
	if (!c)
		return 0;
	int rc = 0;
	nvml_ret r = c->shutdown();
	if (r != NVML_OK)
		rc = nv_fail(c, r, "nvmlShutdown", why, whylen);
	if (dlclose(c->lib) != 0 && rc == 0) {
		const char *e = dlerror();
		snprintf(why, whylen, "dlclose(%s): %s", NVML_LIB, e ? e : "failed");
		rc = -1;
	}
	free(c);
	return rc;
}
