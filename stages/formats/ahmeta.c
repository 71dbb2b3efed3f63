/* ahmeta.c — mm's metadata and header, metadata compared; see ahmeta.h. */
#include "ahmeta.h"
#include "ahlog_write.h"
#include "mmfeatures.h"
#include "core/util.h"
#include "gen/gpus.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* "[a, b, c]" of v[0..n) into buf. */
static const char *list_str(const char *const *v, int n, char *buf, size_t cap)
{
	size_t o = 0;
	buf[o++] = '[';
	for (int i = 0; i < n && o < cap; i++) {
		int w = snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", v[i]);
		o += w > 0 ? (size_t)w : 0;
	}
	if (o + 2 > cap)
		o = cap - 2;
	buf[o++] = ']';
	buf[o] = '\0';
	return buf;
}

static int has(const char *const *v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* What differs between a found list and the expected one, for a message:
 * the first expected name missing, else the first unexpected one, else
 * "another order". */
static void list_diff(const char *const *want, int nw, char *const *got, int ng,
                      char *buf, size_t cap)
{
	for (int i = 0; i < nw; i++)
		if (!has((const char *const *)got, ng, want[i])) {
			snprintf(buf, cap, "'%s' is missing", want[i]);
			return;
		}
	for (int i = 0; i < ng; i++)
		if (!has(want, nw, got[i])) {
			snprintf(buf, cap, "'%s' is not an mm feature", got[i]);
			return;
		}
	snprintf(buf, cap, "the same names in another order");
}

/* The other AutoHeuristic problems PyTorch logs into this container. */
static const char *problem_hint(const char *name)
{
	static const struct {
		const char *name, *what;
	} known[] = {
		{"mixed_mm", "PyTorch's mixed_mm data: a heuristic of its own, "
		             "_MixedMM*.py, whose features lack using_tf32"},
		{"pad_mm", "PyTorch's pad_mm data: whether to pad, choices orig/pad, "
		           "_PadMM*.py"},
		{"flex_attention", "a flex_attention log: attention kernels, not mm"},
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (!strcmp(name, known[i].name))
			return known[i].what;
	return "another AutoHeuristic problem";
}

/* Dies unless got[0..ng) is want[0..nw). */
static void require_list(const char *where, const char *key, const char *const *want,
                         int nw, char *const *got, int ng, const char *hint)
{
	int same = nw == ng;
	for (int i = 0; same && i < nw; i++)
		same = !strcmp(want[i], got[i]);
	if (same)
		return;
	char w[1024], g[4096], d[256];
	list_diff(want, nw, got, ng, d, sizeof d);
	die("%s: metadata '%s': expected mm's %s, found %s (%s%s): not an mm log",
	    where, key, list_str(want, nw, w, sizeof w),
	    list_str((const char *const *)got, ng, g, sizeof g), d, hint);
}

void ah_meta_require_mm(const ah_meta *m, const char *where)
{
	if (strcmp(m->name, "mm"))
		die("%s: metadata 'name': expected 'mm', found '%s' (%s): mmrank "
		    "learns mm rankings only", where, m->name, problem_hint(m->name));
	require_list(where, "numerical_features", mm_raw_num_name, MM_N_RAW_NUM,
	             m->num, m->n_num, "");
	/* mixed_mm's lists with the name edited to mm: say so */
	int mixed = m->n_cat == MM_N_RAW_CAT - 1 &&
	            !has((const char *const *)m->cat, m->n_cat, "using_tf32");
	require_list(where, "categorical_features", mm_raw_cat_name, MM_N_RAW_CAT,
	             m->cat, m->n_cat,
	             mixed ? "; mixed_mm's features, mm's without using_tf32" : "");
}

void ah_header_require_mm(const ah_meta *m, const char *where)
{
	const char *want = ah_mm_header(), *got = m->header;
	if (!strcmp(want, got))
		return;
	int col = 1;
	const char *a = want, *b = got;
	for (;;) {
		size_t la = strcspn(a, ","), lb = strcspn(b, ",");
		if (la != lb || strncmp(a, b, la))
			die("%s: header column %d is '%.*s', mm's is '%.*s' (mm's header: "
			    "'%s'): not an mm log", where, col, (int)lb, b, (int)la, a, want);
		if (!a[la] || !b[lb])
			break;
		a += la + 1;
		b += lb + 1;
		col++;
	}
	die("%s: header differs from mm's '%s'", where, want);
}

int ah_meta_equal(const ah_meta *a, const ah_meta *b)
{
	json_error_t err;
	json_t *ja = json_loads(a->json, 0, &err);
	if (!ja)
		die("metadata is not valid JSON: %s", err.text);
	json_t *jb = json_loads(b->json, 0, &err);
	if (!jb)
		die("metadata is not valid JSON: %s", err.text);
	int eq = json_equal(ja, jb);
	json_decref(ja);
	json_decref(jb);
	return eq;
}

int ah_meta_same_device(const ah_meta *a, const ah_meta *b)
{
	return a->shared_memory == b->shared_memory && a->cap_major == b->cap_major &&
	       a->cap_minor == b->cap_minor;
}

const char *ah_device_str(const ah_meta *m, char *buf, size_t n)
{
	/* the device names of the GPU table's rows (datasets/GPUS.tsv) that
	 * report this device, each once, in the table's order */
#define GPU_ROW(name, arch, mib, smem, major, minor, dev, nvmmh) {smem, major, minor, dev},
	static const struct {
		int64_t smem;
		int major, minor;
		const char *dev;
	} rows[] = {GPUS_ROWS(GPU_ROW)};
#undef GPU_ROW
	char gpus[128] = "";
	size_t o = 0;
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		if (rows[i].smem != m->shared_memory || rows[i].major != m->cap_major ||
		    rows[i].minor != m->cap_minor || !*rows[i].dev)
			continue;
		int seen = 0;
		for (size_t j = 0; j < i; j++)
			seen |= rows[j].smem == rows[i].smem && rows[j].major == rows[i].major &&
			        rows[j].minor == rows[i].minor && !strcmp(rows[j].dev, rows[i].dev);
		if (seen || o >= sizeof gpus)
			continue;
		int w = snprintf(gpus + o, sizeof gpus - o, "%s%s", o ? " or " : "", rows[i].dev);
		o += w > 0 ? (size_t)w : 0;
	}
	snprintf(buf, n, "shared_memory %" PRId64 ", device_capa (%d, %d)%s%s%s",
	         m->shared_memory, m->cap_major, m->cap_minor, o ? " (" : "",
	         gpus, o ? ")" : "");
	return buf;
}

int ah_meta_check(const ah_meta *ref, const char *refname, const ah_meta *m,
                  const char *name, int cross_ok, const char *flag)
{
	if (ah_meta_equal(ref, m))
		return 0;
	char dm[256], dr[256];
	if (ah_meta_same_device(ref, m))
		die("%s: metadata differ from %s's (same device; expected '%s', found "
		    "'%s')", name, refname, ref->json, m->json);
	if (cross_ok)
		return 1;
	if (flag)
		die("%s: collected on another device than %s: %s, not %s; to evaluate "
		    "across devices on purpose, give %s", name, refname,
		    ah_device_str(m, dm, sizeof dm), ah_device_str(ref, dr, sizeof dr), flag);
	die("%s: collected on another device than %s: %s, not %s (a heuristic "
	    "learns one device's timings: train on that device's data only)", name,
	    refname, ah_device_str(m, dm, sizeof dm), ah_device_str(ref, dr, sizeof dr));
}
