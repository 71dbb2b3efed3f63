/* topk_c.c — the expected top-k of one mm context from a generated C
 * heuristic (the twin of the Python artifact the handler loads), for
 * check/t6150-handler.sh.
 *
 * Build (one translation unit):
 *   cc -std=c11 -I DIR -DHEUR=NAME -DHEUR_C='"DIR/_NAME.c"' topk_c.c -o topk_c
 * usage: topk_c M K N DTYPE S1_0 S1_1 S2_0 S2_1 CONTIG1 CONTIG2 TF32 TOPK OFFERED
 *   DTYPE torch.float16|torch.bfloat16|torch.float32; CONTIG* and TF32 0/1;
 *   TOPK a count, or auto: the leaf's k (NAME_top_k()), 10 when
 *   it has none, said on stderr as "topk_c: auto k N";
 *   OFFERED: a file of choice ids, one a line (the call's candidates).
 * Says the leaf's pick (NAME_pick(), the choice to run alone) on stderr as
 * "topk_c: pick ID" ("-": none).  Prints the first TOPK ids of the ranking that are in OFFERED, one a line,
 * in rank order ("-" alone: the leaf is unsafe).  Exit status 1 on bad
 * arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include HEUR_C

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define RANK CAT(HEUR, _rank)
#define MAXR CAT(HEUR, _MAX_RANKED)
#define NAMES CAT(HEUR, _choices)
#define TOP_K CAT(HEUR, _top_k)
#define PICK CAT(HEUR, _pick)

enum { MAX_OFFERED = 512, ID_LEN = 160 };

static int die(const char *msg, const char *arg)
{
	fprintf(stderr, "topk_c: %s%s\n", msg, arg);
	return 1;
}

static long long num(const char *s, int *bad)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 0)
		*bad = 1;
	return v;
}

int main(int argc, char **argv)
{
	static char offered[MAX_OFFERED][ID_LEN];
	ah_mm_ranked out[MAXR];
	ah_mm_context c;
	int bad = 0, n_off = 0, topk, n, shown = 0;
	FILE *fp;

	if (argc != 14)
		return die("usage: topk_c M K N DTYPE S1_0 S1_1 S2_0 S2_1 CONTIG1 CONTIG2 TF32 TOPK OFFERED", "");
	memset(&c, 0, sizeof c);
	c.m = num(argv[1], &bad), c.k = num(argv[2], &bad), c.n = num(argv[3], &bad);
	c.mat1_dtype = !strcmp(argv[4], "torch.float16") ? AH_MM_DTYPE_FLOAT16
	             : !strcmp(argv[4], "torch.bfloat16") ? AH_MM_DTYPE_BFLOAT16
	             : !strcmp(argv[4], "torch.float32") ? AH_MM_DTYPE_FLOAT32 : AH_MM_DTYPE_OTHER;
	c.mat2_dtype = c.mat1_dtype;
	c.mat1_stride_0 = num(argv[5], &bad), c.mat1_stride_1 = num(argv[6], &bad);
	c.mat2_stride_0 = num(argv[7], &bad), c.mat2_stride_1 = num(argv[8], &bad);
	c.mat1_iscontig = (int)num(argv[9], &bad), c.mat2_iscontig = (int)num(argv[10], &bad);
	c.allow_tf32 = (int)num(argv[11], &bad);
	if (!strcmp(argv[12], "auto")) {
		topk = TOP_K(&c);
		if (topk < 1)
			topk = 10;
		fprintf(stderr, "topk_c: auto k %d\n", topk);
	} else {
		topk = (int)num(argv[12], &bad);
	}
	if (bad || c.mat1_dtype == AH_MM_DTYPE_OTHER || topk < 1)
		return die("bad argument", "");
	fp = fopen(argv[13], "r");
	if (!fp)
		return die("cannot open ", argv[13]);
	while (n_off < MAX_OFFERED && fgets(offered[n_off], ID_LEN, fp)) {
		offered[n_off][strcspn(offered[n_off], "\n")] = '\0';
		if (offered[n_off][0])
			n_off++;
	}
	fclose(fp);
	int pick = PICK(&c);
	fprintf(stderr, "topk_c: pick %s\n", pick >= 0 ? NAMES[pick] : "-");
	n = RANK(&c, out, MAXR);
	if (n < 0) {
		puts("-");
		return 0;
	}
	for (int i = 0; i < n && i < MAXR && shown < topk; i++) {
		const char *id = NAMES[out[i].choice];
		for (int j = 0; j < n_off; j++)
			if (!strcmp(offered[j], id)) {
				puts(id);
				shown++;
				break;
			}
	}
	return 0;
}
