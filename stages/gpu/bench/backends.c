/* backends.c — the table of bench back ends (backend.h): one line per
 * --template value, naming its plan half and its GPU half.  Compiled into
 * build/bin/bench with -DBENCH_CUDA (GPU halves linked) and into
 * build/bin/bench-fake without (GPU halves NULL: the fake measures every
 * candidate itself). */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "nvrtc.h"
#include "triton.h"

#ifdef BENCH_CUDA
#define GPU_HALF(ops) (&(ops))
#else
#define GPU_HALF(ops) NULL
#endif

const bench_backend bench_backends[] = {
	{ "mm", &nvrtc_plan, GPU_HALF(nvrtc_gpu), NVRTC_MM },
	{ "mma", &nvrtc_plan, GPU_HALF(nvrtc_gpu), NVRTC_MMA },
	{ "mma+wgmma", &nvrtc_plan, GPU_HALF(nvrtc_gpu), NVRTC_MMA_WGMMA },
	{ "triton", &triton_plan, GPU_HALF(triton_gpu), 0 },
	{ NULL, NULL, NULL, 0 },
};

const bench_backend *backend_find(const char *name)
{
	for (const bench_backend *b = bench_backends; b->name; b++)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

void backend_names(char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (const bench_backend *b = bench_backends; b->name && len < n; b++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", b == bench_backends ? "" :
		                        b[1].name ? ", " : " or ", b->name);
}
