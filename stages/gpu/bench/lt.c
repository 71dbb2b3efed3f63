/* lt.c — GPU-independent half of the cuBLASLt choices: choice ids, the
 * algorithm list reader and the discovery tally (lt.h; the driver loop of
 * --lt-discover is discover.c, the CUDA half cuda_lt.c).  Linked into
 * build/bin/bench and build/bin/bench-fake; tested on the CPU by
 * check/t4110-bench-lt.sh. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lt.h"
#include "plan.h"
#include "core/tsvtext.h"
#include "core/util.h"

const char lt_list_header[] =
	"algo\ttile\tstages\tsplitk\treduction\tswizzle\tcustom\tinner\tcluster\t"
	"dtypes\tinputs\trank1";

/* The attributes in id and column order, with their ranges. */
enum { NATTR = 9 };
static const char *const attr_name[NATTR] = {
	"algo", "tile", "stages", "splitk", "reduction", "swizzle", "custom", "inner", "cluster"
};
/* algo and splitk are int32_t in cuBLASLt and may be negative (the
 * heuristic returns split-K -1 for some algorithms); the others unsigned */
static const int64_t attr_min[NATTR] = { INT32_MIN, 0, 0, INT32_MIN, 0, 0, 0, 0, 0 };
static const int64_t attr_max[NATTR] = {
	INT32_MAX, UINT32_MAX, UINT32_MAX, INT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX,
	UINT16_MAX, UINT16_MAX
};

static void get_attrs(const lt_algo *a, int64_t v[NATTR])
{
	v[0] = a->algo;
	v[1] = a->tile;
	v[2] = a->stages;
	v[3] = a->splitk;
	v[4] = a->reduction;
	v[5] = a->swizzle;
	v[6] = a->custom;
	v[7] = a->inner;
	v[8] = a->cluster;
}

static void set_attrs(lt_algo *a, const int64_t v[NATTR])
{
	a->algo = (int32_t)v[0];
	a->tile = (uint32_t)v[1];
	a->stages = (uint32_t)v[2];
	a->splitk = (int32_t)v[3];
	a->reduction = (uint32_t)v[4];
	a->swizzle = (uint32_t)v[5];
	a->custom = (uint32_t)v[6];
	a->inner = (uint32_t)v[7];
	a->cluster = (uint32_t)v[8];
}

unsigned lt_dtype_class(int dtype, int tf32)
{
	switch (dtype) {
	case DT_F32: return tf32 ? LT_TF32 : LT_F32;
	case DT_F16: return LT_F16;
	default: return LT_BF16;
	}
}

static const char *const class_names[4] = { "f32", "tf32", "f16", "bf16" };

const char *lt_class_name(unsigned bit)
{
	for (int i = 0; i < 4; i++)
		if (bit == 1u << i)
			return class_names[i];
	return "?";
}

int lt_format_id(const lt_algo *a, char *buf, size_t n)
{
	int64_t v[NATTR];
	get_attrs(a, v);
	size_t len = (size_t)snprintf(buf, n, "type=cublaslt");
	for (int i = 0; i < NATTR && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "_%s=%" PRId64, attr_name[i], v[i]);
	if (len >= n)
		die("internal: cuBLASLt choice id longer than %zu bytes", n);
	return (int)len;
}

/* s[0..len) as a decimal in [min, max] (min >= -max-1), canonical: an
 * optional '-' only when min < 0, no '+', no leading zeros, no "-0".
 * Returns 0 with *out set, or -1. */
static int parse_int(const char *s, size_t len, int64_t min, int64_t max, int64_t *out)
{
	int neg = len > 0 && s[0] == '-';
	if (neg && min >= 0)
		return -1;
	s += neg;
	len -= (size_t)neg;
	if (len == 0 || len > 19 || (len > 1 && s[0] == '0') || (neg && s[0] == '0'))
		return -1;
	int64_t v = 0, lim = neg ? -min : max;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > lim)
			return -1;
	}
	*out = neg ? -v : v;
	return 0;
}

int lt_parse_id(const char *s, lt_algo *a, const char **why)
{
	static const char prefix[] = "type=cublaslt";
	int64_t v[NATTR];
	const char *p = s;
	if (why)
		*why = "type";
	if (strncmp(p, prefix, sizeof prefix - 1))
		return -1;
	p += sizeof prefix - 1;
	for (int i = 0; i < NATTR; i++) {
		size_t kl = strlen(attr_name[i]);
		if (why)
			*why = attr_name[i];
		if (p[0] != '_' || strncmp(p + 1, attr_name[i], kl) || p[1 + kl] != '=')
			return -1;
		p += kl + 2;
		size_t vl = (p[0] == '-') + strspn(p + (p[0] == '-'), "0123456789");
		if (parse_int(p, vl, attr_min[i], attr_max[i], &v[i]) != 0)
			return -1;
		p += vl;
	}
	if (*p) {
		if (why)
			*why = "end";
		return -1;
	}
	set_attrs(a, v);
	return 0;
}

void lt_print_attrs(FILE *fp, const lt_algo *a)
{
	int64_t v[NATTR];
	get_attrs(a, v);
	for (int i = 0; i < NATTR; i++)
		fprintf(fp, "%s%c", attr_name[i], i + 1 < NATTR ? '\t' : '\n');
	for (int i = 0; i < NATTR; i++)
		fprintf(fp, "%" PRId64 "%c", v[i], i + 1 < NATTR ? '\t' : '\n');
}

int lt_same(const lt_algo *a, const lt_algo *b)
{
	int64_t x[NATTR], y[NATTR];
	get_attrs(a, x);
	get_attrs(b, y);
	return !memcmp(x, y, sizeof x);
}

/* "f16+bf16" -> bits; 0 on a malformed list (unknown name, repeat, order
 * other than f32, tf32, f16, bf16, empty part). */
static unsigned parse_classes(const char *s)
{
	unsigned bits = 0;
	int last = -1;
	while (*s) {
		size_t l = strcspn(s, "+");
		int found = -1;
		for (int i = 0; i < 4; i++)
			if (strlen(class_names[i]) == l && !strncmp(s, class_names[i], l))
				found = i;
		if (found <= last)
			return 0;
		bits |= 1u << found;
		last = found;
		s += l;
		if (*s == '+' && !*++s)
			return 0;
	}
	return bits;
}

static void format_classes(unsigned bits, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < 4; i++)
		if (bits & (1u << i))
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "+" : "", class_names[i]);
}

lt_entry *lt_list_read(const char *path, int *n)
{
	char *buf = tsv_read(path, "a header line"), *p = buf, *l;
	lt_entry *v = NULL;
	int64_t *vline = NULL;
	size_t cap = 0, capl = 0;
	int cnt = 0, header = 0;
	int64_t lineno = 0;
	while ((l = tsv_line(&p, path, &lineno))) {
		if (*l == '#')
			continue;
		if (!header) {
			if (strcmp(l, lt_list_header))
				die("%s:%" PRId64 ": bad header (expected '%s', tab separated)", path,
				    lineno, lt_list_header);
			header = 1;
			continue;
		}
		char *f[NATTR + 3];
		int nf = tsv_split(l, f, NATTR + 3);
		if (nf != NATTR + 3)
			die("%s:%" PRId64 ": expected %d tab-separated fields, got %d", path, lineno,
			    NATTR + 3, nf);
		if (cnt == LT_MAX_LIST)
			die("%s:%" PRId64 ": more than %d algorithms", path, lineno, LT_MAX_LIST);
		xgrow((void **)&v, &cap, (size_t)cnt + 1, sizeof *v);
		xgrow((void **)&vline, &capl, (size_t)cnt + 1, sizeof *vline);
		lt_entry *e = &v[cnt];
		int64_t a[NATTR];
		memset(e, 0, sizeof *e);
		for (int i = 0; i < NATTR; i++)
			if (parse_int(f[i], strlen(f[i]), attr_min[i], attr_max[i], &a[i]) != 0)
				die("%s:%" PRId64 ": field '%s': bad value '%s' (a decimal in [%" PRId64
				    ", %" PRId64 "])", path, lineno, attr_name[i], f[i], attr_min[i],
				    attr_max[i]);
		set_attrs(&e->a, a);
		e->dtypes = parse_classes(f[NATTR]);
		if (!e->dtypes)
			die("%s:%" PRId64 ": field 'dtypes': bad value '%s' (a '+'-joined subset of "
			    "f32, tf32, f16, bf16 in that order)", path, lineno, f[NATTR]);
		if (parse_int(f[NATTR + 1], strlen(f[NATTR + 1]), 0, INT64_MAX / 2, &e->inputs) != 0)
			die("%s:%" PRId64 ": field 'inputs': bad value '%s'", path, lineno, f[NATTR + 1]);
		if (parse_int(f[NATTR + 2], strlen(f[NATTR + 2]), 0, e->inputs, &e->rank1) != 0)
			die("%s:%" PRId64 ": field 'rank1': bad value '%s' (a count <= inputs)", path,
			    lineno, f[NATTR + 2]);
		for (int j = 0; j < cnt; j++)
			if (lt_same(&v[j].a, &e->a))
				die("%s:%" PRId64 ": the same algorithm as line %" PRId64, path, lineno, vline[j]);
		vline[cnt++] = lineno;
	}
	if (!header)
		die("%s: no header line", path);
	if (cnt == 0)
		die("%s: no algorithms", path);
	free(vline);
	free(buf);
	*n = cnt;
	return v;
}

/* ---- discovery tally ---- */
typedef struct {
	lt_entry e;
	int64_t per_class[4];      /* inputs of each type class whose top-N held it */
	int keep;                  /* lt_tally_write: selected */
} tally_elem;

struct lt_tally {
	tally_elem *e;
	size_t n, cap;
};

lt_tally *lt_tally_new(void) { return xcalloc(1, sizeof(lt_tally)); }

static int class_index(unsigned cls)
{
	for (int i = 0; i < 4; i++)
		if (cls == 1u << i)
			return i;
	die("internal: type class %u is not one class", cls);
}

void lt_tally_add(lt_tally *t, const lt_algo *algos, int n, unsigned cls)
{
	int ci = class_index(cls);
	for (int i = 0; i < n; i++) {
		int dup = 0;
		for (int j = 0; j < i && !dup; j++)
			dup = lt_same(&algos[j], &algos[i]);
		if (dup)
			continue; /* one input counts once per algorithm */
		size_t k = 0;
		while (k < t->n && !lt_same(&t->e[k].e.a, &algos[i]))
			k++;
		if (k == t->n) {
			xgrow((void **)&t->e, &t->cap, t->n + 1, sizeof *t->e);
			memset(&t->e[k], 0, sizeof t->e[k]);
			t->e[k].e.a = algos[i];
			t->n++;
		}
		t->e[k].e.dtypes |= cls;
		t->e[k].e.inputs++;
		t->e[k].e.rank1 += i == 0;
		t->e[k].per_class[ci]++;
	}
}

int lt_tally_count(const lt_tally *t) { return (int)t->n; }

static int cmp_entry(const lt_entry *a, const lt_entry *b)
{
	if (a->inputs != b->inputs)
		return a->inputs > b->inputs ? -1 : 1;
	if (a->rank1 != b->rank1)
		return a->rank1 > b->rank1 ? -1 : 1;
	char ia[LT_ID_MAX], ib[LT_ID_MAX];
	lt_format_id(&a->a, ia, sizeof ia);
	lt_format_id(&b->a, ib, sizeof ib);
	return strcmp(ia, ib);
}

static int cmp_elem(const void *x, const void *y)
{
	return cmp_entry(&((const tally_elem *)x)->e, &((const tally_elem *)y)->e);
}

/* 1 if x ranks before y for type class c: more inputs of that class, then
 * cmp_entry's order. */
static int before_in_class(const tally_elem *x, const tally_elem *y, int c)
{
	if (x->per_class[c] != y->per_class[c])
		return x->per_class[c] > y->per_class[c];
	return cmp_entry(&x->e, &y->e) < 0;
}

int lt_tally_write(const lt_tally *t, FILE *fp, const char *const *comments, int keep)
{
	int written = 0;
	tally_elem *s = xmalloc(sizeof *s * (t->n + 1));
	char *taken = xmalloc(t->n + 1);
	if (t->n)
		memcpy(s, t->e, sizeof *s * t->n);
	qsort(s, t->n, sizeof *s, cmp_elem);
	for (size_t i = 0; i < t->n; i++)
		s[i].keep = keep <= 0;
	/* keep > 0: the keep best of each type class (selection, O(keep n)) */
	for (int c = 0; c < 4 && keep > 0; c++) {
		memset(taken, 0, t->n + 1);
		for (int r = 0; r < keep; r++) {
			size_t best = t->n;
			for (size_t i = 0; i < t->n; i++)
				if (!taken[i] && s[i].per_class[c] > 0 &&
				    (best == t->n || before_in_class(&s[i], &s[best], c)))
					best = i;
			if (best == t->n)
				break;
			taken[best] = 1;
			s[best].keep = 1;
		}
	}
	for (int i = 0; comments && comments[i]; i++)
		fprintf(fp, "# %s\n", comments[i]);
	fprintf(fp, "%s\n", lt_list_header);
	for (size_t i = 0; i < t->n; i++) {
		if (!s[i].keep)
			continue;
		int64_t v[NATTR];
		char cl[32];
		get_attrs(&s[i].e.a, v);
		for (int j = 0; j < NATTR; j++)
			fprintf(fp, "%" PRId64 "\t", v[j]);
		format_classes(s[i].e.dtypes, cl, sizeof cl);
		fprintf(fp, "%s\t%" PRId64 "\t%" PRId64 "\n", cl, s[i].e.inputs, s[i].e.rank1);
		written++;
	}
	free(taken);
	free(s);
	return written;
}

void lt_tally_free(lt_tally *t)
{
	if (!t)
		return;
	free(t->e);
	free(t);
}
