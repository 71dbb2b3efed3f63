/* shapes_models.c — model-layer table reader and GEMM expansion
 * (shapes_models.h; stages/FORMATS.md "model-layer table"). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "shapes_models.h"
#include "core/tsvtext.h"
#include "core/util.h"

const char shape_models_header[] =
	"model\tlayer\tin_features\tout_features\tweight\tphase\tpasses\ttokens\tprecisions\tpad\t"
	"config\tderivation";

enum { F_MODEL, F_LAYER, F_IN, F_OUT, F_WEIGHT, F_PHASE, F_PASSES, F_TOKENS, F_PREC, F_PAD,
       F_CONFIG, F_DERIV, N_FIELDS };
static const char *const field_name[N_FIELDS] = {
	"model", "layer", "in_features", "out_features", "weight", "phase", "passes", "tokens",
	"precisions", "pad", "config", "derivation"
};

#define MAX_TOKENS 64
#define MAX_NAME 48
#define DIM_MAX ((INT64_C(1) << 31) - 1)

enum { P_FWD, P_DX, P_DW };
static const char *const pass_name[] = { "fwd", "dX", "dW", NULL };
/* precisions: dtype and tf32 */
static const char *const prec_name[] = { "bf16", "fp16", "fp32", "tf32", NULL };
static const int prec_dtype[] = { SHAPE_BF16, SHAPE_F16, SHAPE_F32, SHAPE_F32 };
static const int prec_tf32[] = { 0, 0, 0, 1 };

typedef struct {
	const char *path;
	int64_t line;
	char *f[N_FIELDS];
} row_ctx;

_Noreturn static void bad(const row_ctx *c, int field, const char *why)
{
	die("%s:%" PRId64 ": field '%s': %s: '%s'", c->path, c->line, field_name[field], why,
	    c->f[field]);
}

/* s consists of 1..max bytes, each alphanumeric or in extra. */
static int name_ok(const char *s, size_t max, const char *extra)
{
	size_t n = strlen(s);
	if (n == 0 || n > max)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      (*extra && strchr(extra, *s))))
			return 0;
	return 1;
}

static int64_t get_dim(const row_ctx *c, int field, const char *s, size_t len)
{
	int64_t v;
	if (parse_i64(s, len, &v) != 0 || v < 1 || v > DIM_MAX)
		bad(c, field, "expected integers in 1 .. 2^31-1");
	return v;
}

/* Comma list of words, each once, at most max: indices into words (NULL-
 * terminated), in list order.  Returns the count. */
static int get_words(const row_ctx *c, int field, const char *const *words, int *out, int max)
{
	char all[128] = "";
	for (int i = 0; words[i]; i++)
		snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? ", " : "", words[i]);
	int n = 0;
	for (const char *p = c->f[field];;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int w = 0;
		while (words[w] && (strlen(words[w]) != len || strncmp(p, words[w], len)))
			w++;
		if (!words[w])
			die("%s:%" PRId64 ": field '%s': unknown item '%.*s' in '%s' (expected %s of: %s)",
			    c->path, c->line, field_name[field], (int)len, p, c->f[field],
			    max == 1 ? "one" : "a comma list", all);
		for (int i = 0; i < n; i++)
			if (out[i] == w)
				die("%s:%" PRId64 ": field '%s': '%.*s' listed twice in '%s'", c->path,
				    c->line, field_name[field], (int)len, p, c->f[field]);
		if (n == max)
			die("%s:%" PRId64 ": field '%s': '%s': expected one of: %s", c->path, c->line,
			    field_name[field], c->f[field], all);
		out[n++] = w;
		if (!e)
			return n;
		p = e + 1;
	}
}

static int get_tokens(const row_ctx *c, int64_t *out)
{
	int n = 0;
	for (const char *p = c->f[F_TOKENS];;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (n == MAX_TOKENS)
			bad(c, F_TOKENS, "more than 64 token counts");
		out[n] = get_dim(c, F_TOKENS, p, len);
		for (int i = 0; i < n; i++)
			if (out[i] == out[n])
				bad(c, F_TOKENS, "token count listed twice");
		n++;
		if (!e)
			return n;
		p = e + 1;
	}
}

int64_t shape_inductor_pad(int64_t c, int itemsize)
{
	int64_t align = 128 / itemsize;
	return c > 1024 && c % align ? (c + align - 1) / align * align : c;
}

/* The GEMM of one pass (shapes_models.h table). */
static void gemm(shape_row *r, int in_out, int pass, int64_t t, int64_t in, int64_t out,
                 int64_t xs, int64_t ds)
{
	if (pass == P_FWD) {
		r->m = t, r->k = in, r->n = out;
		r->s1_0 = xs, r->s1_1 = 1;
		r->s2_0 = in_out ? out : 1, r->s2_1 = in_out ? 1 : in;
	} else if (pass == P_DX) {
		r->m = t, r->k = out, r->n = in;
		r->s1_0 = ds, r->s1_1 = 1;
		r->s2_0 = in_out ? 1 : in, r->s2_1 = in_out ? out : 1;
	} else if (!in_out) {
		r->m = out, r->k = t, r->n = in;
		r->s1_0 = 1, r->s1_1 = ds;
		r->s2_0 = xs, r->s2_1 = 1;
	} else {
		r->m = in, r->k = t, r->n = out;
		r->s1_0 = 1, r->s1_1 = xs;
		r->s2_0 = ds, r->s2_1 = 1;
	}
}

static void expand_row(row_ctx *c, shape_emit_fn emit, void *ctx)
{
	static const char *const weights[] = { "out_in", "in_out", NULL };
	static const char *const pads[] = { "none", "inductor", NULL };
	if (!name_ok(c->f[F_MODEL], MAX_NAME, "_-"))
		bad(c, F_MODEL, "expected 1..48 bytes of [A-Za-z0-9_-]");
	if (!name_ok(c->f[F_LAYER], MAX_NAME, "_+-"))
		bad(c, F_LAYER, "expected 1..48 bytes of [A-Za-z0-9_+-]");
	if (!name_ok(c->f[F_PHASE], 16, ""))
		bad(c, F_PHASE, "expected 1..16 bytes of [A-Za-z0-9]");
	int64_t in = get_dim(c, F_IN, c->f[F_IN], strlen(c->f[F_IN]));
	int64_t out = get_dim(c, F_OUT, c->f[F_OUT], strlen(c->f[F_OUT]));
	int w, pad, passes[3], prec[4];
	get_words(c, F_WEIGHT, weights, &w, 1);
	get_words(c, F_PAD, pads, &pad, 1);
	int npass = get_words(c, F_PASSES, pass_name, passes, 3);
	int nprec = get_words(c, F_PREC, prec_name, prec, 4);
	int64_t tok[MAX_TOKENS];
	int ntok = get_tokens(c, tok);
	if (strncmp(c->f[F_CONFIG], "https://", 8) || !name_ok(c->f[F_CONFIG] + 8, 300, "-._~:/?#[]@!$&'()*+,;=%"))
		bad(c, F_CONFIG, "expected an https:// URL without spaces");
	for (const char *p = c->f[F_DERIV]; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			bad(c, F_DERIV, "control character");
	/* passes in canonical order, whatever the list order */
	int want[3] = { 0, 0, 0 };
	for (int i = 0; i < npass; i++)
		want[passes[i]] = 1;
	for (int pi = 0; pi < nprec; pi++) {
		shape_row r;
		memset(&r, 0, sizeof r);
		r.line = c->line;
		r.sample = -1;
		r.dtype = prec_dtype[prec[pi]];
		r.tf32 = prec_tf32[prec[pi]];
		int isz = shape_dtype_size(r.dtype);
		int64_t xs = pad ? shape_inductor_pad(in, isz) : in;
		int64_t ds = pad ? shape_inductor_pad(out, isz) : out;
		for (int ti = 0; ti < ntok; ti++)
			for (int p = P_FWD; p <= P_DW; p++) {
				if (!want[p])
					continue;
				gemm(&r, w, p, tok[ti], in, out, xs, ds);
				snprintf(r.source, sizeof r.source, "%s.%s.%s%s%s", c->f[F_MODEL],
				         c->f[F_LAYER], c->f[F_PHASE], p == P_FWD ? "" : ".",
				         p == P_FWD ? "" : pass_name[p]);
				char err[256];
				const char *f = shape_complete(&r, -1, -1, NULL, err, sizeof err);
				if (f)
					die("%s:%" PRId64 ": %s GEMM with %" PRId64 " tokens: field '%s': %s",
					    c->path, c->line, pass_name[p], tok[ti], f, err);
				emit(ctx, &r);
			}
	}
}

int64_t shape_models_expand(const char *path, shape_emit_fn emit, void *ctx)
{
	char *buf = tsv_read(path, "a header line"), *pos = buf, *p;
	row_ctx c = { .path = path };
	int header = 0;
	int64_t rows = 0;
	while ((p = tsv_line(&pos, path, &c.line))) {
		if (*p == '#' || *p == '\0')
			continue;
		if (!header) {
			if (strcmp(p, shape_models_header))
				die("%s:%" PRId64 ": header: expected '%s' (tab separated)", path, c.line,
				    shape_models_header);
			header = 1;
			continue;
		}
		int n = tsv_split(p, c.f, N_FIELDS);
		if (n != N_FIELDS)
			die("%s:%" PRId64 ": %d tab-separated fields, expected %d", path, c.line, n, N_FIELDS);
		for (int i = 0; i < N_FIELDS; i++)
			if (!*c.f[i])
				die("%s:%" PRId64 ": field '%s': empty", path, c.line, field_name[i]);
		expand_row(&c, emit, ctx);
		rows++;
	}
	if (!header)
		die("%s: no header line", path);
	free(buf);
	return rows;
}
