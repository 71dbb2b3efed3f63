/* triton_meta.c — see triton_meta.h. */
#include "triton_meta.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/util.h"

static int whyf(char *why, size_t whylen, const char *fmt, ...) PRINTF_LIKE(3, 4);
static int whyf(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}
#define WHY(...) whyf(why, whylen, __VA_ARGS__)

static int get_int(json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *out,
                   const char *path, char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_integer(v))
		return WHY("%s: field '%s': missing or not an integer", path, key);
	int64_t x = json_integer_value(v);
	if (x < lo || x > hi)
		return WHY("%s: field '%s': %" PRId64 " outside [%" PRId64 ", %" PRId64 "]", path, key, x, lo, hi);
	*out = x;
	return 0;
}

static int get_str(json_t *o, const char *key, char *dst, size_t cap, const char *path,
                   char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_string(v))
		return WHY("%s: field '%s': missing or not a string", path, key);
	const char *s = json_string_value(v);
	if (strlen(s) >= cap)
		return WHY("%s: field '%s': longer than %zu bytes", path, key, cap - 1);
	strcpy(dst, s);
	return 0;
}

static int get_false(json_t *o, const char *key, const char *path, char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_boolean(v))
		return WHY("%s: field '%s': missing or not a boolean", path, key);
	if (json_is_true(v))
		return WHY("%s: field '%s': true is not supported by this launcher", path, key);
	return 0;
}

static const char *pnames[] = {"A", "B", "C", "M", "N", "K", "stride_am", "stride_ak",
                               "stride_bk", "stride_bn"};

/* The entry's identity: format, variant (the file's name), status (into
 * status[0..cap)), Triton version, source hash, arch, compile time. */
static int read_identity(json_t *o, const char *variant, tl_meta *m, char *status, size_t cap,
                         const char *path, char *why, size_t whylen)
{
	char s[256];
	int64_t x;
	if (get_str(o, "format", s, sizeof s, path, why, whylen))
		return -1;
	if (strcmp(s, "mmrank-triton-cubin 1"))
		return WHY("%s: field 'format': '%s', expected 'mmrank-triton-cubin 1'", path, s);
	if (get_str(o, "variant", m->variant, sizeof m->variant, path, why, whylen))
		return -1;
	if (strcmp(m->variant, variant))
		return WHY("%s: field 'variant': '%s' is not the file's name", path, m->variant);
	if (get_str(o, "status", status, cap, path, why, whylen))
		return -1;
	if (get_str(o, "triton_version", m->triton_version, sizeof m->triton_version, path, why, whylen) ||
	    get_str(o, "source_hash", m->source_hash, sizeof m->source_hash, path, why, whylen) ||
	    get_int(o, "arch", 0, 1000, &x, path, why, whylen))
		return -1;
	m->arch = (int)x;
	json_t *cs = json_object_get(o, "compile_s");
	m->compile_s = json_is_number(cs) ? json_number_value(cs) : 0;
	return 0;
}

/* A compiled entry's launch fields: kernel name, block shape, warps,
 * shared memory, scratch buffers, the cubin's size and hash. */
static int read_launch(json_t *o, tl_meta *m, const char *path, char *why, size_t whylen)
{
	char s[256];
	int64_t x;
	if (get_str(o, "name", m->name, sizeof m->name, path, why, whylen))
		return -1;
	struct { const char *k; int *dst; int64_t lo, hi; } ints[] = {
		{"shared", &m->shared, 0, 1 << 24}, {"num_warps", &m->num_warps, 1, 32},
		{"threads", &m->threads, 32, 1024}, {"num_stages", &m->num_stages, 0, 64},
		{"num_ctas", &m->num_ctas, 1, 16}, {"block_m", &m->block_m, 1, 4096},
		{"block_n", &m->block_n, 1, 4096},
	};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		if (get_int(o, ints[i].k, ints[i].lo, ints[i].hi, &x, path, why, whylen))
			return -1;
		*ints[i].dst = (int)x;
	}
	if (m->threads != 32 * m->num_warps)
		return WHY("%s: field 'threads': %d is not 32 * num_warps (%d)", path, m->threads, m->num_warps);
	if (m->num_ctas != 1)
		return WHY("%s: field 'num_ctas': %d (clusters) is not supported by this launcher", path, m->num_ctas);
	if (get_false(o, "launch_pdl", path, why, whylen) ||
	    get_false(o, "launch_cooperative_grid", path, why, whylen))
		return -1;
	if (get_int(o, "global_scratch_size", 0, INT32_MAX, &m->gscratch_size, path, why, whylen) ||
	    get_int(o, "global_scratch_align", 1, 4096, &m->gscratch_align, path, why, whylen) ||
	    get_int(o, "profile_scratch_size", 0, INT32_MAX, &m->pscratch_size, path, why, whylen) ||
	    get_int(o, "profile_scratch_align", 1, 4096, &m->pscratch_align, path, why, whylen) ||
	    get_int(o, "cubin_bytes", 1, INT32_MAX, &m->cubin_bytes, path, why, whylen))
		return -1;
	if (get_str(o, "cubin_fnv1a64", s, sizeof s, path, why, whylen))
		return -1;
	char *end;
	errno = 0;
	m->cubin_fnv = strtoull(s, &end, 16);
	if (strlen(s) != 16 || *end || errno)
		return WHY("%s: field 'cubin_fnv1a64': not 16 hex digits: '%s'", path, s);
	return 0;
}

/* params[i] into *q: a name of pnames[] not in *seen (added), a type this
 * launcher binds (pointers "*fp16", "*bf16", "*fp32"; integers i32, i64). */
static int read_param(json_t *p, size_t i, tl_param *q, unsigned *seen, const char *path,
                      char *why, size_t whylen)
{
	json_t *nm = json_object_get(p, "name"), *ty = json_object_get(p, "type");
	if (!json_is_string(nm) || !json_is_string(ty))
		return WHY("%s: field 'params[%zu]': needs string name and type", path, i);
	const char *n = json_string_value(nm), *t = json_string_value(ty);
	int what = -1;
	for (int j = 0; j < (int)(sizeof pnames / sizeof pnames[0]); j++)
		if (!strcmp(n, pnames[j]))
			what = j;
	if (what < 0 || *seen & (1u << what))
		return WHY("%s: field 'params[%zu]': unknown or repeated parameter '%s'", path, i, n);
	*seen |= 1u << what;
	q->what = what;
	if (what <= TL_C) {
		q->type = TL_PTR;
		if (!strcmp(t, "*fp16") || !strcmp(t, "*bf16"))
			q->elem = 2;
		else if (!strcmp(t, "*fp32"))
			q->elem = 4;
		else
			return WHY("%s: field 'params[%zu]': pointer type '%s' not supported", path, i, t);
	} else if (!strcmp(t, "i32"))
		q->type = TL_I32;
	else if (!strcmp(t, "i64"))
		q->type = TL_I64;
	else
		return WHY("%s: field 'params[%zu]': integer type '%s' not supported", path, i, t);
	return 0;
}

/* The kernel's parameters: Triton 3.x's two scratch pointers appended, then
 * 3 to TL_MAX_PARAMS of its own, A, B and C among them. */
static int read_params(json_t *o, tl_meta *m, const char *path, char *why, size_t whylen)
{
	json_t *ex = json_object_get(o, "extra_params");
	if (!json_is_array(ex) || json_array_size(ex) != 2 ||
	    !json_is_string(json_array_get(ex, 0)) || !json_is_string(json_array_get(ex, 1)) ||
	    strcmp(json_string_value(json_array_get(ex, 0)), "global_scratch") ||
	    strcmp(json_string_value(json_array_get(ex, 1)), "profile_scratch"))
		return WHY("%s: field 'extra_params': expected [\"global_scratch\", \"profile_scratch\"] "
		           "(Triton 3.x's appended scratch pointers)", path);
	json_t *ps = json_object_get(o, "params");
	if (!json_is_array(ps) || json_array_size(ps) < 3 || json_array_size(ps) > TL_MAX_PARAMS)
		return WHY("%s: field 'params': not an array of 3 to %d parameters", path, TL_MAX_PARAMS);
	unsigned seen = 0;
	for (size_t i = 0; i < json_array_size(ps); i++)
		if (read_param(json_array_get(ps, i), i, &m->param[i], &seen, path, why, whylen))
			return -1;
	if ((seen & 7u) != 7u)
		return WHY("%s: field 'params': A, B and C are required", path);
	m->nparams = (int)json_array_size(ps);
	return 0;
}

/* The fields of entry o (DIR/VARIANT.json, path), after the JSON parse. */
static int read_entry(json_t *o, const char *variant, tl_meta *m, const char *path, char *why,
                      size_t whylen)
{
	char s[256];
	if (!json_is_object(o))
		return WHY("%s: not a JSON object", path);
	if (read_identity(o, variant, m, s, sizeof s, path, why, whylen))
		return -1;
	if (!strcmp(s, "error")) {
		if (get_str(o, "error", m->error, sizeof m->error, path, why, whylen))
			return -1;
		m->ok = 0;
		return 0;
	}
	if (strcmp(s, "ok"))
		return WHY("%s: field 'status': '%s', expected ok or error", path, s);
	m->ok = 1;
	if (read_launch(o, m, path, why, whylen) || read_params(o, m, path, why, whylen))
		return -1;
	return 0;
}

int tl_meta_read(const char *dir, const char *variant, tl_meta *m, char *why, size_t whylen)
{
	memset(m, 0, sizeof *m);
	char path[4096];
	if (strlen(variant) >= sizeof m->variant)
		return WHY("variant name longer than %zu bytes", sizeof m->variant - 1);
	snprintf(path, sizeof path, "%s/%s.json", dir, variant);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		if (errno == ENOENT)
			return snprintf(why, whylen, "%s: not compiled (no such entry)", path), 1;
		return WHY("%s: cannot open: %s", path, strerror(errno));
	}
	json_error_t je;
	json_t *o = json_loadf(fp, 0, &je);
	fclose(fp);
	if (!o)
		return WHY("%s:%d: not JSON: %s", path, je.line, je.text);
	int rc = read_entry(o, variant, m, path, why, whylen);
	json_decref(o);
	return rc;
}

void *tl_cubin_read(const char *dir, const tl_meta *m, size_t *len, char *why, size_t whylen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.cubin", dir, m->variant);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(why, whylen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	char *img = xmalloc((size_t)m->cubin_bytes + 1);
	size_t n = fread(img, 1, (size_t)m->cubin_bytes + 1, fp);
	int err = ferror(fp);
	fclose(fp);
	if (err || n != (size_t)m->cubin_bytes) {
		snprintf(why, whylen, "%s: %zu bytes, its metadata says %" PRId64, path, n, m->cubin_bytes);
		free(img);
		return NULL;
	}
	if (fnv1a64(FNV1A64_INIT, img, n) != m->cubin_fnv) {
		snprintf(why, whylen, "%s: content does not match its metadata's cubin_fnv1a64", path);
		free(img);
		return NULL;
	}
	img[n] = '\0';
	*len = n;
	return img;
}
