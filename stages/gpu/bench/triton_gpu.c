/* triton_gpu.c — the GPU half of the Triton back end (triton.h,
 * backend.h): each candidate's compile variant of kernels/triton_mm.py
 * loaded once per process from the --triton-cubins folder (triton_launch.h;
 * compiled ahead of time by python3 -m mmrank.bench.triton_aot — bench never
 * compiles), launched with Inductor's grid and the input's sizes and
 * strides (ic_args), and every choice of the input, extern_mm included,
 * timed with Inductor's method (triton_timing.h tt_time: an L2 flush before
 * each launch, its own event pair, the minimum; one repetition = one
 * tt_time), with the long-kernel rule of --long-ms (stages/gpu/policy/ttsched.h;
 * --stats: long_choices, long_fallbacks) and, with --loser-ratio L (off
 * by default), the loser cut against the input's best time so far (cuda.h
 * measurer input_best; --stats: loser_choices, loser_fallbacks) and, with
 * --warm-from-verify (off by default), the candidate's verification call
 * on the input as the first timing's warm-up (cuda.h measurer verify_ms;
 * --stats: warm_from_verify).  The driver is reached through stages/gpu/cuda/cudrv.h (bench does
 * not link libcuda: it starts without a driver and says so).
 *
 * Failures as Inductor's: a variant recorded as a compile error, or one
 * over the device's shared memory or threads ("out of resource: shared
 * memory, Required: R, Hardware limit: L"), is inf on every input (said
 * once per variant); a variant missing from the folder is fatal (the cache
 * is incomplete: compile first; the input in flight is redone on resume).
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "triton.h"
#include "triton_launch.h"
#include "triton_timing.h"
#include "core/util.h"

typedef struct {
	char variant[IC_VARIANT_MAX];
	tl_kernel k;
	int ok;                    /* 0: inf (compile error, out of resource) */
	int launched;              /* has run in this process (cand_ready.launched) */
} tmod;

typedef struct {
	const char *dir;           /* --triton-cubins */
	char version[64];          /* the Triton version in the folder's name */
	CUdevice dev;
	tt_bench tb;
	tt_params tp;
	tmod **mods;               /* each allocated once: pointers stay valid */
	size_t nmods, capmods;
} triton_state;

/* The folder's name, triton-<16 hex>-<version>-sm<arch> (entry_dir of
 * python/mmrank/bench/triton_aot.py): the version into v, returns the arch,
 * or -1 if the name is not one. */
static int entry_name(const char *dir, char *v, size_t vlen)
{
	const char *b = strrchr(dir, '/');
	b = b ? b + 1 : dir;
	if (!*b) /* a trailing slash */
		return -1;
	if (strncmp(b, "triton-", 7) || strlen(b) < 7 + 17 + 4 || b[23] != '-')
		return -1;
	for (int i = 7; i < 23; i++)
		if (!strchr("0123456789abcdef", b[i]))
			return -1;
	const char *sm = strrchr(b, '-');
	int arch;
	char tail;
	if (sm <= b + 24 || sscanf(sm, "-sm%d%c", &arch, &tail) != 1)
		return -1;
	snprintf(v, vlen, "%.*s", (int)(sm - (b + 24)), b + 24);
	return arch;
}

static void *triton_open(measurer *m, const bench_opts *o, int variant)
{
	(void)variant;
	if (!o->triton_cubins)
		die("--template triton needs --triton-cubins DIR: the folder of compiled variants "
		    "(python3 -m mmrank.bench.triton_aot --entry-dir; make triton-cubins SHAPES=FILE "
		    "compiles the variants a shape list needs)");
	triton_state *st = xcalloc(1, sizeof *st);
	st->dir = o->triton_cubins;
	int arch = entry_name(st->dir, st->version, sizeof st->version);
	if (arch < 0)
		die("--triton-cubins %s: not an mmrank.bench.triton_aot entry folder "
		    "(triton-<hash>-<triton version>-sm<arch>)", st->dir);
	DIR *d = opendir(st->dir);
	if (!d)
		die("--triton-cubins %s: no such folder (compile the variants first: make "
		    "triton-cubins SHAPES=FILE)", st->dir);
	closedir(d);
	if (arch != m->dev.cap_major * 10 + m->dev.cap_minor)
		die("--triton-cubins %s: cubins for sm_%d, the device is %s", st->dir, arch, m->arch);
	DRV_OK(&m->drv, m->drv.devget(&st->dev, o->device));
	char why[512];
	if (tt_init(&st->tb, &m->drv, NULL, st->dev, 128, why, sizeof why))
		die("the Triton timer: %s", why);
	st->tp = (tt_params)TT_PARAMS_INDUCTOR;
	st->tp.long_ms = o->long_ms; /* 0: Inductor's schedule */
	st->tp.long_launches = o->long_launches;
	st->tp.loser_ratio = o->loser_ratio; /* 0: no loser cut */
	st->tp.warm_from_verify = o->warm_from_verify; /* 0: a warm-up call of its own */
	st->tp.verify_cut = o->verify_cut;             /* 0: no verification cut */
	st->tp.verify_cut_audit = o->verify_cut_audit;
	return st;
}

/* The loaded module of variant v, loaded on first use. */
static tmod *get_mod(triton_state *st, measurer *m, const bench_input *in, const bench_cand *c)
{
	for (size_t i = 0; i < st->nmods; i++)
		if (!strcmp(st->mods[i]->variant, c->variant))
			return st->mods[i];
	double t0 = mono_s();
	tmod *t = xcalloc(1, sizeof *t);
	snprintf(t->variant, sizeof t->variant, "%s", c->variant);
	char why[1024];
	int rc = tl_load(&t->k, &m->drv, st->dir, t->variant, st->dev, why, sizeof why);
	if (rc == 1)
		die("input %" PRId64 ": %s: variant %s is not in %s: bench only loads cubins; compile "
		    "the shapes' variants first (make triton-cubins SHAPES=FILE, or triton_cands "
		    "--variants + python3 -m mmrank.bench.triton_aot), then rerun to resume",
		    in->id, c->id, t->variant, st->dir);
	t->ok = rc == 0;
	if (!t->ok) {
		/* Inductor's inf: said once per variant */
		fprintf(stderr, "bench: %s (variant %s): %s; inf on every input\n", c->id, t->variant,
		        why);
		m->s.n_compile_fail++;
	} else {
		m->s.n_cache_hit++;
	}
	m->s.t_load += mono_s() - t0;
	xgrow((void **)&st->mods, &st->capmods, st->nmods + 1, sizeof *st->mods);
	st->mods[st->nmods++] = t;
	return t;
}

static int triton_prepare(void *s, measurer *m, const bench_input *in, const bench_cand *c,
                          const cuda_bufs *bf, cand_ready *r)
{
	(void)bf;
	tmod *t = get_mod(s, m, in, c);
	r->h = t;
	r->launched = &t->launched;
	return t->ok ? 0 : -1; /* not ok: inf, as Inductor's failed candidates */
}

static int triton_run(void *s, measurer *m, const bench_input *in, const bench_cand *c,
                      const cand_ready *r, const cuda_bufs *bf, int i, void *out)
{
	(void)s;
	(void)m;
	tmod *t = r->h;
	ic_input x;
	int64_t arg[IC_NARG];
	char why[512];
	triton_ic_input(in, &x);
	ic_args(&x, arg);
	if (tl_launch(&t->k, NULL, (CUdeviceptr)bf->A[i], (CUdeviceptr)bf->B[i], (CUdeviceptr)out,
	              arg, why, sizeof why)) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: %s\n", in->id, c->id, why);
		return -1;
	}
	return 0;
}

/* One call of a candidate for tt_time: operand copy 0 into bf->C (Inductor
 * times fresh tensors, not rotated ones; the flush keeps them out of L2). */
typedef struct {
	measurer *m;
	const bench_input *in;
	const bench_cand *c;
	const cand_ready *r;
	const cuda_bufs *bf;
} tcall;

static int call_once(void *ctx, CUstream s)
{
	(void)s; /* stream 0: the GPU halves' calls go there */
	const tcall *t = ctx;
	return cuda_run(t->m, t->in, t->c, t->r, t->bf, 0, t->bf->C);
}

static double triton_time(void *s, measurer *m, const bench_input *in, const bench_cand *c,
                          const cand_ready *r, cuda_bufs *bf, int n_iter)
{
	(void)n_iter; /* Inductor's method decides its launches */
	triton_state *st = s;
	tcall t = { m, in, c, r, bf };
	double ms;
	char why[512];
	tt_sched how;
	int rc = tt_time(&st->tb, &st->tp, call_once, &t, m->input_best, m->verify_ms, &ms, &how,
	                 why, sizeof why);
	if (rc) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: %s\n", in->id, c->id, why);
		cuda_check_context(m, c->id);
		m->s.n_launch_fail++;
		return -1;
	}
	m->s.n_launch += tt_sched_calls(&how);
	m->s.n_long += how.is_long;
	m->s.n_long_fallback += how.long_tried && !how.is_long;
	m->s.n_loser += how.is_loser;
	m->s.n_loser_fallback += how.loser_tried && !how.is_loser;
	m->s.n_warm_from_verify += how.warm_reused;
	tt_vcut_count(&m->s.vcut, &how, st->tb.audit_ratio);
	return ms > 0 ? ms : 1e-6;
}

static void triton_describe_gpu(void *s, FILE *fp)
{
	triton_state *st = s;
	fprintf(fp, "triton\t%s\ntriton_cubins\t%s\n", st->version, st->dir);
}

static void triton_close(void *s, measurer *m)
{
	(void)m;
	triton_state *st = s;
	for (size_t i = 0; i < st->nmods; i++) {
		if (tl_unload(&st->mods[i]->k))
			die("unloading Triton variant %s failed", st->mods[i]->variant);
		free(st->mods[i]);
	}
	free(st->mods);
	if (tt_free(&st->tb))
		die("freeing the Triton timer's buffers failed");
	free(st);
}

const bench_gpu_ops triton_gpu = { .open = triton_open, .prepare = triton_prepare,
                                   .run = triton_run, .time = triton_time, .close = triton_close,
                                   .describe = triton_describe_gpu, .verify_each = 1,
                                   .one_copy = 1 };
