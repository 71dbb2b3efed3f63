/* perf/kernels/harness.c — the GPU-independent half of the harness library
 * (harness.h): configs and dtypes, mma.cu cubin keys and the NVRTC cache,
 * parallel precompilation. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "gpu/cuda/nvrtc_cache.h"
#include "core/util.h" /* stages/core: die, xmalloc, read_file, fnv1a64, mono_s, mkdir_p */

const char *const DNAME[ND] = {"fp32", "fp16", "bf16", "tf32"};

int d_es(int d) { return (d == D_F16 || d == D_BF16) ? 2 : 4; }
int d_DT(int d) { return d == D_TF32 ? 0 : d; }

/* kernels/mma.cu's MMA_SMEM_BYTES (bytes) */
long smem_bytes(const cfg_t *c, int d)
{
	long es = d_es(d), pk = 16 / es;
	long a1 = (long)c->bm * (c->bk + pk), a2 = (long)c->bk * (c->bm + 8);
	long b1 = (long)c->bn * (c->bk + pk), b2 = (long)c->bk * (c->bn + 8);
	return (long)c->st * ((a1 > a2 ? a1 : a2) + (b1 > b2 ? b1 : b2)) * es;
}

/* Configurations of file (header "list\tBLOCK_M...", '#' comments; rows
 * "list BM BN BK stages warps").  Returns a malloc'd array of *n rows;
 * dies on a missing file or a bad row. */
cfg_row *read_configs_file(const char *path, int *n)
{
	size_t len;
	char *txt = read_file(path, &len);
	cfg_row *rows = NULL;
	int cap = 0, cnt = 0, header = 0;
	for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		if (!header) {
			header = 1;
			if (strncmp(line, "list\t", 5) != 0)
				die("%s: bad header", path);
			continue;
		}
		cfg_row r;
		memset(&r, 0, sizeof r);
		if (sscanf(line, "%15s %d %d %d %d %d", r.list, &r.c.bm, &r.c.bn, &r.c.bk,
		           &r.c.st, &r.c.nw) != 6)
			die("%s: bad line '%s'", path, line);
		if (r.c.bm < 16 || r.c.bn < 16 || r.c.bk < 16 || r.c.st < 1 || r.c.nw < 1)
			die("%s: bad config '%s'", path, line);
		if (cnt == cap)
			rows = xrealloc(rows, sizeof *rows * (size_t)(cap = cap ? 2 * cap : 64));
		rows[cnt++] = r;
	}
	free(txt);
	if (cnt == 0)
		die("%s: no configurations", path);
	*n = cnt;
	return rows;
}

int key_eq(const vkey *a, const vkey *b)
{
	return a->c.bm == b->c.bm && a->c.bn == b->c.bn && a->c.bk == b->c.bk &&
	       a->c.st == b->c.st && a->c.nw == b->c.nw && a->d == b->d && a->splitk == b->splitk;
}

void keyset_add(keyset *s, const vkey *k)
{
	for (size_t i = 0; i < s->n; i++)
		if (key_eq(&s->v[i], k))
			return;
	if (s->n == s->cap)
		s->v = xrealloc(s->v, sizeof *s->v * (s->cap = s->cap ? 2 * s->cap : 256));
	s->v[s->n++] = *k;
}

int cfg_opts(char (*opt)[64], const char **opts, const char *arch, const cfg_t *c, int dt)
{
	return nvrtc_config_opts(opt, opts, arch, c->bm, c->bn, c->bk, c->st, c->nw, dt);
}

/* mma.cu's options for key k: cfg_opts, then TF32 and SPLITK */
static void key_opts(const vkey *k, char opt[10][64], const char *opts[10], int *no)
{
	int n = cfg_opts(opt, opts, "sm_90", &k->c, d_DT(k->d));
	snprintf(opt[n], 64, "-DTF32=%d", k->d == D_TF32);
	opts[n] = opt[n];
	n++;
	snprintf(opt[n], 64, "-DSPLITK=%d", k->splitk);
	opts[n] = opt[n];
	*no = n + 1;
}

/* Cache file of a cubin: DIR/<FNV-1a of the source hash and the options>.cubin */
static void cubin_path_opts(char *buf, size_t n, const char *cache, uint64_t srch,
                            const char *const *opts, int no)
{
	uint64_t h = srch;
	for (int i = 0; i < no; i++)
		h = fnv1a64(h, opts[i], strlen(opts[i]) + 1);
	snprintf(buf, n, "%s/%016" PRIx64 ".cubin", cache, h);
}

/* Cubin of source src (hash srch, program name name) compiled by NVRTC with
 * options opts[0..no): from the cache DIR when there, else compiled and stored
 * (temp file + rename, safe for parallel precompile jobs).  Returns a malloc'd
 * image (*len bytes; *compiled = 1 when NVRTC ran), or NULL on a compile
 * error (log on stderr).  Other NVRTC or file errors are fatal. */
char *nvrtc_cubin(const char *src, uint64_t srch, const char *cache, const char *name,
                         const char *const *opts, int no, size_t *len, int *compiled)
{
	char path[4096], *why;
	cubin_path_opts(path, sizeof path, cache, srch, opts, no);
	char *img = nvrtc_cubin_cached(path, cache, src, name, opts, no, len, &why, compiled);
	if (!img) {
		fprintf(stderr, "mma_harness: %s (%s", why, name);
		for (int i = 0; i < no; i++)
			fprintf(stderr, " %s", opts[i]);
		fprintf(stderr, ")\n");
		free(why);
	}
	return img;
}


/* The cache file of mma.cu key k */
static void cubin_path(char *buf, size_t n, const char *cache, uint64_t srch, const vkey *k)
{
	char opt[10][64];
	const char *opts[10];
	int no;
	key_opts(k, opt, opts, &no);
	cubin_path_opts(buf, n, cache, srch, opts, no);
}

/* Cubin for mma.cu key k (see nvrtc_cubin) */
char *get_cubin(const char *src, uint64_t srch, const char *cache, const vkey *k,
                       size_t *len, int *compiled)
{
	char opt[10][64];
	const char *opts[10];
	int no;
	key_opts(k, opt, opts, &no);
	return nvrtc_cubin(src, srch, cache, "mma.cu", opts, no, len, compiled);
}

vkey util_key(int d)
{
	vkey k = {{64, 64, 32, 3, 4}, d, 0};
	return k;
}

double tflops(const input_t *x, double ms)
{
	return 2.0 * x->m * (double)x->n * x->k / (ms * 1e9);
}

/* Runs one(ctx, i) for i in [0, n) in jobs forked processes (job j takes
 * i = j, j + jobs, ...); one returns 0 on success.  Returns 0 when every
 * call succeeded, else 1.  fork/waitpid failures are fatal. */
int run_jobs(size_t n, int jobs, int (*one)(void *, size_t), void *ctx)
{
	pid_t *pids = xmalloc(sizeof(pid_t) * (size_t)jobs);
	for (int j = 0; j < jobs; j++) {
		pid_t p = fork();
		if (p < 0)
			die("fork: %s", strerror(errno));
		if (p == 0) {
			int bad = 0;
			for (size_t i = (size_t)j; i < n; i += (size_t)jobs)
				bad += one(ctx, i) != 0;
			_exit(bad ? 1 : 0);
		}
		pids[j] = p;
	}
	int rc = 0;
	for (int j = 0; j < jobs; j++) {
		int st;
		if (waitpid(pids[j], &st, 0) < 0)
			die("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			rc = 1;
	}
	free(pids);
	return rc;
}

typedef struct {
	const char *src, *cache;
	uint64_t srch;
	const keyset *ks;
} pre_ctx;

static int pre_one(void *p, size_t i)
{
	pre_ctx *c = p;
	size_t len;
	int compiled;
	char *img = get_cubin(c->src, c->srch, c->cache, &c->ks->v[i], &len, &compiled);
	free(img);
	return img == NULL;
}

/* Compiles (NVRTC, jobs processes) every mma.cu cubin of ks missing from
 * the cache.  Returns 0 when all compiled, 1 otherwise. */
int precompile(const char *src, uint64_t srch, const char *cache, const keyset *ks, int jobs)
{
	int todo = 0;
	char path[4096];
	for (size_t i = 0; i < ks->n; i++) {
		cubin_path(path, sizeof path, cache, srch, &ks->v[i]);
		todo += access(path, R_OK) != 0;
	}
	printf("precompile: %zu cubins needed, %d missing, %d jobs\n", ks->n, todo, jobs);
	fflush(stdout);
	mkdir_p(cache);
	pre_ctx c = {src, cache, srch, ks};
	int rc = run_jobs(ks->n, jobs, pre_one, &c);
	printf("precompile: %s\n", rc ? "some kernels failed to compile" : "ok");
	return rc;
}
