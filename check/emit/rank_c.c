/* rank_c.c — rank every context of a TSV with a generated C heuristic; the C
 * twin of rank_py.py (same input, same output lines), for check/t5100-emit.sh
 * and check/emit/bench_latency.sh.
 *
 * Build (one translation unit, so the generated static helpers are visible):
 *   cc -std=c99 -D_POSIX_C_SOURCE=200809L -I DIR -DHEUR=NAME \
 *      -DHEUR_C='"DIR/_NAME.c"' [-DWITH_AI] rank_c.c -o rank_c
 * usage: rank_c CONTEXTS.tsv [--bench SECONDS | --pick | --pick-offered |
 *                             --pick-all-offered | --top-k | --truth]
 * Output per context: "<n>\t[<arith_intensity %.17g>\t]<ranking>", ranking
 * "idx:p,..." (p %.3f), "None" (unsafe leaf) or "-" (empty).
 * --pick: instead "<n>\t<NAME_pick() index>" per context.
 * --pick-offered: instead "<n>\t<NAME_pick_offered() index>" with every
 * choice offered but NAME_pick()'s; --pick-all-offered: with every choice
 * offered.
 * --top-k: instead "<n>\t<NAME_top_k()>" per context (-1: none).
 * --truth: instead "<n>\t<NAME_truth()>" per context (0 or 1).
 * --bench: instead print nanoseconds per NAME_rank() call over the contexts
 * (each call ranks into a buffer of NAME_MAX_RANKED entries). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include HEUR_C

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define RANK CAT(HEUR, _rank)
#define MAXR CAT(HEUR, _MAX_RANKED)
#define AI CAT(HEUR, _arith_intensity)
#define PICK CAT(HEUR, _pick)
#define PICK_OFFERED CAT(HEUR, _pick_offered)
#define TRUTH CAT(HEUR, _truth)
#define TOP_K CAT(HEUR, _top_k)
#define NCH CAT(HEUR, _N_CHOICES)

static const char *const names[12] = {
	"m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0",
	"mat2_stride_1", "mat1_dtype", "mat2_dtype", "mat1_iscontig",
	"mat2_iscontig", "using_tf32"
};

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "rank_c: %s%s\n", msg, arg);
	exit(1);
}

static ah_mm_dtype dtype(const char *s)
{
	if (!strcmp(s, "torch.float16"))
		return AH_MM_DTYPE_FLOAT16;
	if (!strcmp(s, "torch.bfloat16"))
		return AH_MM_DTYPE_BFLOAT16;
	if (!strcmp(s, "torch.float32"))
		return AH_MM_DTYPE_FLOAT32;
	return AH_MM_DTYPE_OTHER;
}

/* Split line at tabs in place; returns the field count (<= max). */
static int split(char *line, char **f, int max)
{
	int n = 0;
	line[strcspn(line, "\n")] = '\0';
	for (;;) {
		if (n < max)
			f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			return n;
		*line++ = '\0';
	}
}

int main(int argc, char **argv)
{
	enum { MAXF = 256 };
	size_t cap = 1 << 20, n = 0, ncap = 1024;
	char *line = malloc(cap), *f[MAXF], last[64] = "";
	int col[12], incol = -1, nf, lineno = 0;
	ah_mm_context *ctx = malloc(ncap * sizeof *ctx);
	double bench = -1;
	int pick = 0;
	FILE *fp;

	if (argc == 4 && !strcmp(argv[2], "--bench"))
		bench = atof(argv[3]);
	else if (argc == 3 && !strcmp(argv[2], "--pick"))
		pick = 1;
	else if (argc == 3 && !strcmp(argv[2], "--pick-offered"))
		pick = 2;
	else if (argc == 3 && !strcmp(argv[2], "--top-k"))
		pick = 3;
	else if (argc == 3 && !strcmp(argv[2], "--pick-all-offered"))
		pick = 4;
	else if (argc == 3 && !strcmp(argv[2], "--truth"))
		pick = 5;
	else if (argc != 2)
		die("usage: rank_c CONTEXTS.tsv [--bench SECONDS | --pick | --pick-offered | "
		    "--pick-all-offered | --top-k | --truth]", "");
	fp = fopen(argv[1], "r");
	if (!fp || !line || !ctx)
		die("cannot open ", argv[1]);
	while (fgets(line, (int)cap, fp)) {
		lineno++;
		if (line[0] == '{' && lineno == 1)
			continue;
		nf = split(line, f, MAXF);
		if (incol == -1) { /* the header */
			int i, j;
			for (j = 0; j < 12; j++) {
				col[j] = -1;
				for (i = 0; i < nf; i++)
					if (!strcmp(f[i], names[j]))
						col[j] = i;
				if (col[j] < 0)
					die("no column ", names[j]);
			}
			for (i = 0; i < nf; i++)
				if (!strcmp(f[i], "input"))
					incol = i;
			if (incol < 0)
				incol = -3;
			continue;
		}
		if (incol >= 0) {
			if (!strcmp(f[incol], last))
				continue;
			snprintf(last, sizeof last, "%s", f[incol]);
		}
		if (n == ncap) {
			ncap *= 2;
			ctx = realloc(ctx, ncap * sizeof *ctx);
			if (!ctx)
				die("out of memory", "");
		}
		{
			ah_mm_context *c = &ctx[n++];
			c->m = strtoll(f[col[0]], NULL, 10);
			c->k = strtoll(f[col[1]], NULL, 10);
			c->n = strtoll(f[col[2]], NULL, 10);
			c->mat1_stride_0 = strtoll(f[col[3]], NULL, 10);
			c->mat1_stride_1 = strtoll(f[col[4]], NULL, 10);
			c->mat2_stride_0 = strtoll(f[col[5]], NULL, 10);
			c->mat2_stride_1 = strtoll(f[col[6]], NULL, 10);
			c->mat1_dtype = dtype(f[col[7]]);
			c->mat2_dtype = dtype(f[col[8]]);
			c->mat1_iscontig = !strcmp(f[col[9]], "True");
			c->mat2_iscontig = !strcmp(f[col[10]], "True");
			c->allow_tf32 = !strcmp(f[col[11]], "True");
		}
	}
	fclose(fp);
	if (bench >= 0) {
		ah_mm_ranked out[MAXR > 0 ? MAXR : 1];
		struct timespec t0, t1;
		double dt;
		long long calls = 0, sum = 0;
		size_t i;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			for (i = 0; i < n; i++) {
				int r = RANK(&ctx[i], out, MAXR);
				sum += r + (r > 0 ? out[0].choice : 0);
			}
			calls += (long long)n;
			clock_gettime(CLOCK_MONOTONIC, &t1);
			dt = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		} while (dt < bench);
		printf("%.2f\n", dt * 1e9 / (double)calls);
		fprintf(stderr, "rank_c: %lld calls (checksum %lld)\n", calls, sum);
		return 0;
	}
	{
		size_t i;
		ah_mm_ranked out[MAXR > 0 ? MAXR : 1];
		for (i = 0; i < n; i++) {
			int r = RANK(&ctx[i], out, MAXR), j;
			printf("%lu\t", (unsigned long)i);
			if (pick == 3) {
				printf("%d\n", TOP_K(&ctx[i]));
				continue;
			}
			if (pick == 1) {
				printf("%d\n", PICK(&ctx[i]));
				continue;
			}
			if (pick == 5) {
				printf("%d\n", TRUTH(&ctx[i]));
				continue;
			}
			if (pick == 2 || pick == 4) {
				unsigned char offered[NCH];
				memset(offered, 1, sizeof offered);
				if (pick == 2)
					offered[PICK(&ctx[i])] = 0;
				printf("%d\n", PICK_OFFERED(&ctx[i], offered));
				continue;
			}
#ifdef WITH_AI
			printf("%.17g\t", AI(ctx[i].m, ctx[i].k, ctx[i].n));
#endif
			if (r < 0)
				fputs("None", stdout);
			else if (r == 0)
				fputs("-", stdout);
			for (j = 0; j < r; j++)
				printf("%s%d:%.3f", j ? "," : "", out[j].choice, out[j].prob);
			putchar('\n');
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die("write error", "");
	free(line);
	free(ctx);
	return 0;
}
