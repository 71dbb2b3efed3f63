/* cuda.c — the CUDA measurer (measure.h; internals cuda.h): the device,
 * cuBLAS, the events and the back end's GPU half opened and closed, and
 * --stats.  Linked into build/bin/bench with libmmcuda (stages/gpu/cuda/).
 *
 * The driver API is reached through cudaGetDriverEntryPointByVersion
 * (stages/gpu/cuda/cudrv.h), so the binary does not need libcuda.so.1 to start
 * and says "no GPU" clearly on a machine without a driver.
 *
 * Timing (spec §1.3, ms): after a warm-up call (the verification call
 * when there is one; none on a long input — warm cuBLAS reference time >= 1 ms
 * — for a kernel that already ran in this process), each repetition is
 * CUDA events around n_iter back-to-back calls (cuda_time.c), feedback =
 * elapsed / n_iter.  Adaptive repetitions (--fast-reject, bench_full_reps):
 * a candidate whose first repetition is more than alpha times the best
 * first repetition so far is not repeated (one row).  The reference time is
 * the input's first cuBLAS call, or, when that cold call takes >= min(1 ms,
 * --screen-ms), the smaller of it and a second, warm call (cuda_measure.c).
 * Screening (--screen B, screen.h; cuda_screen.c): on an input whose
 * reference time is >= --screen-ms, extern_mm and every template candidate
 * are verified (first use) and timed on a slice; only those within B x the
 * best slice time, and every cuBLASLt choice, are then timed at full size;
 * the others have no row (--screen-audit times them anyway and reports
 * their full-size ratios).  Failures (compile error, launch error, OOM,
 * wrong result) -> inf and a message on stderr; a sticky CUDA error
 * (context lost) is fatal.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "nvrtc.h"
#include "triton.h"
#include "core/util.h"

const char *measure_kind(void) { return "cuda"; }

/* The device's facts into *dev. */
static void device_facts(int device, bench_device *dev)
{
	int v;
	struct cudaDeviceProp prop;
	CUDA_OK(cudaGetDeviceProperties(&prop, device));
	snprintf(dev->name, sizeof dev->name, "%s", prop.name);
	CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
	dev->smem_optin = v;
	CUDA_OK(cudaDeviceGetAttribute(&dev->cap_major, cudaDevAttrComputeCapabilityMajor, device));
	CUDA_OK(cudaDeviceGetAttribute(&dev->cap_minor, cudaDevAttrComputeCapabilityMinor, device));
	CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, device));
	dev->l2_bytes = v;
	dev->total_mem = (int64_t)prop.totalGlobalMem;
}

measurer *measure_open(const bench_opts *o, const bench_backend *be, bench_device *dev)
{
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e != cudaSuccess)
		die("no usable CUDA GPU: %s (bench needs an NVIDIA GPU and driver; "
		    "bench-fake runs without one)", cudaGetErrorString(e));
	if (o->device >= count)
		die("--device %d: only %d CUDA device(s)", o->device, count);
	measurer *m = xcalloc(1, sizeof *m);
	m->verify_ms = NAN; /* no verification call given (cuda.h) */
	m->o = *o;
	m->be = be;
	CUDA_OK(cudaSetDevice(o->device));
	device_facts(o->device, dev);
	m->dev = *dev;
	snprintf(m->arch, sizeof m->arch, "sm_%d%d", dev->cap_major, dev->cap_minor);
	cudrv_open(&m->drv);
	cublasStatus_t s = cublasCreate(&m->blas);
	if (s != CUBLAS_STATUS_SUCCESS)
		die("cublasCreate: %s", cublasGetStatusString(s));
	CUDA_OK(cudaEventCreate(&m->e0));
	CUDA_OK(cudaEventCreate(&m->e1));
	CUDA_OK(cudaMalloc((void **)&m->d_sums, 3 * sizeof(double)));
	/* the auxiliary kernels are kernels/mm.cu's: the NVRTC state is always open */
	int own = be->gpu == &nvrtc_gpu;
	m->nv = nvrtc_gpu.open(m, o, own ? be->variant : NVRTC_MM);
	m->be_state = own ? m->nv : be->gpu->open ? be->gpu->open(m, o, be->variant) : NULL;
	return m;
}

void measure_describe(measurer *m, FILE *fp)
{
	if (m->be->gpu->describe)
		m->be->gpu->describe(m->be_state, fp);
}

void measure_stats(measurer *m, FILE *fp)
{
	const cuda_stats *b = &m->s;
	fprintf(fp, "inputs\t%" PRId64 "\n", b->n_inputs);
	fprintf(fp, "compile_s\t%.3f\ncompiles\t%" PRId64 "\ncubin_cache_hits\t%" PRId64 "\n",
	        b->t_compile, b->n_compile, b->n_cache_hit);
	fprintf(fp, "module_load_s\t%.3f\nsetup_s\t%.3f\nreference_s\t%.3f\n",
	        b->t_load, b->t_setup, b->t_ref);
	fprintf(fp, "verify_s\t%.3f\nverifications\t%" PRId64 "\nverify_failures\t%" PRId64 "\n",
	        b->t_verify, b->n_verify, b->n_verify_fail);
	fprintf(fp, "timing_nvrtc_s\t%.3f\ntiming_extern_s\t%.3f\ntimed_launches\t%" PRId64 "\n",
	        b->t_time_nvrtc, b->t_time_extern, b->n_launch);
	fprintf(fp, "compile_failures\t%" PRId64 "\nlaunch_failures\t%" PRId64 "\noom_inputs\t%" PRId64 "\n",
	        b->n_compile_fail, b->n_launch_fail, b->n_oom);
	fprintf(fp, "screen_s\t%.3f\nscreened_inputs\t%" PRId64 "\nscreened_out\t%" PRId64
	        "\nscreen_misses\t%" PRId64 "\nwarm_reference_calls\t%" PRId64 "\n", b->t_screen,
	        b->n_screened, b->n_screened_out, b->n_screen_miss, b->n_ref_warm);
	fprintf(fp, "timing_cublaslt_s\t%.3f\ncublaslt_rejected\t%" PRId64
	        "\ncublaslt_rebuild_mismatches\t%" PRId64 "\n", b->t_time_lt, b->n_lt_rejected,
	        b->n_lt_mismatch);
	fprintf(fp, "long_choices\t%" PRId64 "\nlong_fallbacks\t%" PRId64 "\n", b->n_long,
	        b->n_long_fallback);
	fprintf(fp, "loser_choices\t%" PRId64 "\nloser_fallbacks\t%" PRId64 "\n", b->n_loser,
	        b->n_loser_fallback);
	fprintf(fp, "warm_from_verify\t%" PRId64 "\n", b->n_warm_from_verify);
	tt_vcut_print(fp, &b->vcut);
}

int measure_lt_heuristic(measurer *b, const bench_input *in, int n, lt_algo *out)
{
	if (!b->lt)
		b->lt = lt_gpu_open();
	lt_gpu_problem(b->lt, in);
	int *ok = xcalloc((size_t)n, sizeof *ok);
	int cnt = lt_gpu_heuristic(b->lt, n, out, ok);
	for (int i = 0; i < cnt; i++) {
		if (ok[i])
			continue;
		b->s.n_lt_mismatch++;
		char id[LT_ID_MAX];
		lt_format_id(&out[i], id, sizeof id);
		if (lt_gpu_first(b->lt, id, 0))
			fprintf(stderr, "bench: input %" PRId64 ": heuristic algorithm %s: its rebuild "
			        "from the attributes differs or fails the check (reported once)\n",
			        in->id, id);
	}
	free(ok);
	return cnt;
}

void measure_close(measurer *m)
{
	if (m->be->gpu->close && m->be_state != m->nv)
		m->be->gpu->close(m->be_state, m);
	nvrtc_gpu.close(m->nv, m);
	lt_gpu_close(m->lt);
	cublasStatus_t s = cublasDestroy(m->blas);
	if (s != CUBLAS_STATUS_SUCCESS)
		die("cublasDestroy: %s", cublasGetStatusString(s));
	CUDA_OK(cudaEventDestroy(m->e0));
	CUDA_OK(cudaEventDestroy(m->e1));
	CUDA_OK(cudaFree(m->d_sums));
	free(m->vs);
	free(m);
}

int measure_precompile(const bench_opts *o, const bench_backend *be, const void *lists,
                       const bench_input *ins, int64_t nins)
{
	if (!be->gpu->precompile)
		die("--compile-only: back end '%s' compiles nothing here%s", be->name,
		    be->plan == &triton_plan ? " (its cubins: make triton-cubins SHAPES=FILE, or "
		    "triton_cands --variants + python3 -m mmrank.bench.triton_aot)" : "");
	return be->gpu->precompile(o, be->variant, lists, ins, nins);
}
