/* ahlog.c — strict AutoHeuristic log reader, see ahlog.h (spec §1). */
#include "ahlog.h"
#include "ahmeta.h"
#include "emittable.h"
#include "core/readahead.h"
#include "core/sniff.h"
#include "core/util.h"
#include "zipmember.h"

#include <errno.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *json_str_dup(json_t *v)
{
	return xstrndup(json_string_value(v), json_string_length(v));
}

static int name_list(json_t *root, const char *key, char **out, const char *where)
{
	json_t *a = json_object_get(root, key);
	if (!a || !json_is_array(a))
		die("%s: metadata key '%s' is missing or not a list of strings", where, key);
	size_t n = json_array_size(a);
	if (n > AH_MAX_FEATURES)
		die("%s: metadata key '%s' has %zu entries (at most %d)", where, key, n,
		    AH_MAX_FEATURES);
	for (size_t i = 0; i < n; i++) {
		json_t *s = json_array_get(a, i);
		if (!json_is_string(s) || json_string_length(s) == 0)
			die("%s: metadata '%s'[%zu] is not a non-empty string", where, key, i);
		out[i] = json_str_dup(s);
		for (const char *c = out[i]; *c; c++)
			if (*c == ',' || *c == '"' || (unsigned char)*c < ' ' || *c == 0x7f)
				die("%s: metadata '%s'[%zu] '%s' contains a separator or control "
				    "character", where, key, i, out[i]);
	}
	return (int)n;
}

void ah_meta_parse(ah_meta *m, const char *json, const char *where)
{
	memset(m, 0, sizeof *m);
	json_error_t err;
	json_t *root = json_loads(json, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		die("%s: metadata line is not valid JSON: %s (column %d)", where, err.text,
		    err.column);
	if (!json_is_object(root))
		die("%s: metadata line is not a JSON object", where);
	m->json = xstrdup(json);

	json_t *v = json_object_get(root, "name");
	if (!v || !json_is_string(v) || json_string_length(v) == 0)
		die("%s: metadata key 'name' is missing or not a string", where);
	m->name = json_str_dup(v);

	v = json_object_get(root, "shared_memory");
	if (!v || !json_is_integer(v) || json_integer_value(v) < 0)
		die("%s: metadata key 'shared_memory' is missing or not a non-negative integer",
		    where);
	m->shared_memory = json_integer_value(v);

	v = json_object_get(root, "device_capa");
	if (!v || !json_is_array(v) || json_array_size(v) != 2 ||
	    !json_is_integer(json_array_get(v, 0)) || !json_is_integer(json_array_get(v, 1)))
		die("%s: metadata key 'device_capa' is missing or not a pair of integers "
		    "[major, minor]", where);
	json_int_t maj = json_integer_value(json_array_get(v, 0));
	json_int_t min = json_integer_value(json_array_get(v, 1));
	if (maj < 0 || maj > 1000 || min < 0 || min > 1000)
		die("%s: metadata 'device_capa' [%lld, %lld] is out of range", where,
		    (long long)maj, (long long)min);
	m->cap_major = (int)maj;
	m->cap_minor = (int)min;

	m->n_num = name_list(root, "numerical_features", m->num, where);
	m->n_cat = name_list(root, "categorical_features", m->cat, where);
	if (m->n_num + m->n_cat == 0)
		die("%s: metadata lists no features", where);
	if (m->n_num + m->n_cat > AH_MAX_FEATURES)
		die("%s: metadata lists %d features (at most %d)", where, m->n_num + m->n_cat,
		    AH_MAX_FEATURES);
	for (int i = 0; i < m->n_num + m->n_cat; i++)
		for (int j = 0; j < i; j++) {
			const char *a = i < m->n_num ? m->num[i] : m->cat[i - m->n_num];
			const char *b = j < m->n_num ? m->num[j] : m->cat[j - m->n_num];
			if (!strcmp(a, b))
				die("%s: metadata names feature '%s' twice", where, a);
		}
	json_decref(root);
}

void ah_meta_header(ah_meta *m, const char *header, const char *where)
{
	int want = m->n_num + m->n_cat + 2;
	char *cols[AH_MAX_FEATURES + 3];
	int n = 0;
	char *copy = xstrdup(header);
	char *p = copy;
	while (p && n < AH_MAX_FEATURES + 3) {
		cols[n++] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	if (p || n != want)
		die("%s: header has %d column%s but the metadata lists %d feature%s "
		    "(expected %d columns: the features, 'choice', 'feedback')",
		    where, p ? n + 1 : n, plural_s(p ? n + 1 : n), m->n_num + m->n_cat,
		    plural_s(m->n_num + m->n_cat), want);
	if (strcmp(cols[n - 2], "choice") || strcmp(cols[n - 1], "feedback"))
		die("%s: header must end with 'choice,feedback', found '%s,%s'", where,
		    cols[n - 2], cols[n - 1]);
	m->n_feat = n - 2;
	for (int i = 0; i < m->n_feat; i++) {
		int kind = 0, found = 0;
		for (int j = 0; j < m->n_num && !found; j++)
			if (!strcmp(cols[i], m->num[j]))
				kind = j, found = 1;
		for (int j = 0; j < m->n_cat && !found; j++)
			if (!strcmp(cols[i], m->cat[j]))
				kind = -1 - j, found = 1;
		if (!found)
			die("%s: header column %d '%s' is not a feature of the metadata", where,
			    i + 1, cols[i]);
		for (int j = 0; j < i; j++)
			if (m->feat_kind[j] == kind)
				die("%s: header names column '%s' twice", where, cols[i]);
		m->feat[i] = xstrdup(cols[i]);
		m->feat_kind[i] = kind;
	}
	m->header = xstrdup(header);
	free(copy);
}

int ah_meta_onehot(const ah_meta *m, const char *col, const char **value)
{
	int best = -1;
	size_t bl = 0;
	for (int j = 0; j < m->n_cat; j++) {
		size_t l = strlen(m->cat[j]);
		if (l > bl && !strncmp(col, m->cat[j], l) && col[l] == '_')
			best = j, bl = l;
	}
	if (best >= 0 && value)
		*value = col + bl + 1;
	return best;
}

void ah_meta_free(ah_meta *m)
{
	free(m->json);
	free(m->name);
	free(m->header);
	for (int i = 0; i < m->n_num; i++)
		free(m->num[i]);
	for (int i = 0; i < m->n_cat; i++)
		free(m->cat[i]);
	for (int i = 0; i < m->n_feat; i++)
		free(m->feat[i]);
	memset(m, 0, sizeof *m);
}

void ah_reject_cr(const char *path, long long lineno, const char *line, size_t n)
{
	if (memchr(line, '\r', n))
		die("%s:%lld: carriage return in line (CRLF line ends are not accepted; "
		    "convert with dos2unix)", path, lineno);
}

/* ---- the byte source: a FILE or a zip member --------------------------- */

#define AH_BLOCK (1u << 20)   /* bytes read at a time */

/* Read up to n bytes into p; returns how many (0: end of the log). */
static size_t source_read(ah_reader *r, char *p, size_t n)
{
	if (r->ahead) {
		const char *err = NULL;
		ssize_t got = ra_read(r->ahead, p, n, &err);
		if (got < 0)
			die("cannot read '%s': %s", r->path, err);
		return (size_t)got;
	}
	errno = 0;
	size_t got = fread(p, 1, n, r->fp);
	if (got < n && ferror(r->fp))
		die("cannot read '%s': %s", r->path, strerror(errno));
	return got;
}

/* Make room and read more bytes after buf[pos, end) (moved to the front);
 * the buffer doubles when one line fills it.  Sets eof at the end. */
static void refill(ah_reader *r)
{
	size_t keep = r->end - r->pos;
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, keep);
		r->clean -= r->clean < r->pos ? r->clean : r->pos;
		r->pos = 0;
		r->end = keep;
	}
	if (r->cap - r->end < AH_BLOCK / 2) {
		size_t cap = r->cap;
		xgrow((void **)&r->buf, &cap, r->end + AH_BLOCK + 1, 1);
		r->cap = cap;
	}
	/* one byte stays free for the NUL after a last line without '\n' */
	size_t got = source_read(r, r->buf + r->end, r->cap - 1 - r->end);
	if (got == 0)
		r->eof = 1;
	/* bytes before clean hold no '\r' and no NUL: lines there need no
	 * check of their own (two fast scans per block, not per line) */
	if (r->clean == r->end) {
		char *b = r->buf + r->end, *cr = memchr(b, '\r', got), *nul = memchr(b, '\0', got);
		char *bad = !cr ? nul : !nul ? cr : cr < nul ? cr : nul;
		r->clean = bad ? (size_t)(bad - r->buf) : r->end + got;
	}
	r->end += got;
}

/* The next line, without its '\n', NUL-terminated in r->buf: r->line.
 * Returns its length, or -1 at EOF.  Rejects '\r' (CRLF) and NUL bytes. */
static ssize_t read_line(ah_reader *r)
{
	size_t n, seen = 0; /* bytes of this line already searched for '\n' */
	for (;;) {
		char *s = r->buf + r->pos;
		char *nl = memchr(s + seen, '\n', r->end - r->pos - seen);
		seen = r->end - r->pos;
		if (!nl && seen > AH_MAX_LINE)
			die("%s:%lld: line longer than %d MiB (not an AutoHeuristic log?)",
			    r->path, (long long)r->lineno + 1, AH_MAX_LINE >> 20);
		if (nl) {
			n = (size_t)(nl - s);
			r->missing_newline = 0;
			r->pos += n + 1;
			break;
		}
		if (r->eof) {
			n = r->end - r->pos;
			if (n == 0)
				return -1;
			r->missing_newline = 1;
			r->pos = r->end;
			break;
		}
		refill(r);
	}
	r->line = r->buf + r->pos - n - !r->missing_newline;
	r->line[n] = '\0';
	r->lineno++;
	if (r->lineno == 1)
		sniff_or_die(r->path, r->line, n);
	if ((size_t)(r->line - r->buf) + n > r->clean) {
		ah_reject_cr(r->path, (long long)r->lineno, r->line, n);
		if (memchr(r->line, '\0', n))
			die("%s:%lld: NUL byte in line", r->path, (long long)r->lineno);
	}
	return (ssize_t)n;
}

/* Lines 1-2: the metadata and the header (r->path and the source set). */
static void read_head(ah_reader *r)
{
	const char *path = r->path;
	intern_init(&r->choices);
	r->cap = AH_BLOCK + 1;
	r->buf = xmalloc(r->cap);
	char where[4096];
	if (read_line(r) < 0)
		die("%s: empty file: expected the metadata JSON line (spec §1.1)", path);
	if ((unsigned char)r->line[0] == 0xEF)
		die("%s:1: UTF-8 byte-order mark before the metadata line; remove it", path);
	if (r->line[0] != '{')
		die("%s:1: metadata line missing: expected a JSON object, found '%.40s'", path,
		    r->line);
	snprintf(where, sizeof where, "%s:1", path);
	ah_meta_parse(&r->meta, r->line, where);
	ah_meta_require_mm(&r->meta, where);
	if (read_line(r) < 0)
		die("%s:2: header line missing after the metadata", path);
	snprintf(where, sizeof where, "%s:2", path);
	ah_meta_header(&r->meta, r->line, where);
	ah_header_require_mm(&r->meta, where);
	for (int i = 0; i < r->meta.n_feat; i++)
		if (r->meta.feat_kind[i] < 0)
			r->catcol[-1 - r->meta.feat_kind[i]] = i;
}

void ah_open(ah_reader *r, const char *path)
{
	ah_open_named(r, path, NULL);
}

void ah_open_named(ah_reader *r, const char *file, const char *name)
{
	memset(r, 0, sizeof *r);
	r->path = name ? name : !strcmp(file, "-") ? "standard input" : file;
	r->fp = !strcmp(file, "-") ? stdin : fopen(file, "r");
	if (!r->fp)
		die("cannot open '%s': %s", file, strerror(errno));
	read_head(r);
}

void ah_open_zip(ah_reader *r, const char *zip, const char *member, const char *name)
{
	memset(r, 0, sizeof *r);
	if (name) {
		r->path = name;
	} else {
		size_t n = strlen(zip) + strlen(member) + 2;
		r->path_buf = xmalloc(n);
		snprintf(r->path_buf, n, "%s:%s", zip, member);
		r->path = r->path_buf;
	}
	char err[256];
	r->zm = zm_open(zip, member, err, sizeof err);
	if (!r->zm)
		die("cannot read '%s' from %s (missing or damaged zip: %s; remove the zip to fetch "
		    "it again)", member, zip, err);
	/* inflate on a second thread, a few blocks ahead of the parse */
	r->ahead = ra_start(zm_read, r->zm, 4, AH_BLOCK / 4);
	read_head(r);
}

/* ---- rows ---------------------------------------------------------------- */

/* Parse and check the feature fields field[0 .. n_feat) of the current row
 * into r->num and r->cat. */
static void parse_features(ah_reader *r)
{
	const ah_meta *m = &r->meta;
	for (int i = 0; i < m->n_feat; i++) {
		const char *f = r->field[i];
		int kind = m->feat_kind[i];
		if (kind >= 0) {
			int64_t v;
			int rc = parse_i64(f, strlen(f), &v);
			if (rc == -2)
				die("%s:%lld: field '%s': '%s' overflows a 64-bit integer", r->path,
				    (long long)r->lineno, m->feat[i], f);
			if (rc)
				die("%s:%lld: field '%s': cannot parse '%s' as an integer", r->path,
				    (long long)r->lineno, m->feat[i], f);
			if (v < 0)
				die("%s:%lld: field '%s': negative value %lld", r->path,
				    (long long)r->lineno, m->feat[i], (long long)v);
			if (v == 0 && (!strcmp(m->feat[i], "m") || !strcmp(m->feat[i], "k") ||
				       !strcmp(m->feat[i], "n")))
				die("%s:%lld: field '%s': zero dimension (Inductor logs only "
				    "non-empty problems)", r->path, (long long)r->lineno, m->feat[i]);
			r->num[kind] = v;
		} else {
			/* (the one category rule: emittable.h) */
			const char *why = emittable_cat_problem(m->cat[-1 - kind], f);
			if (why)
				die("%s:%lld: field '%s': '%s': %s", r->path, (long long)r->lineno,
				    m->feat[i], f, why);
			r->cat[-1 - kind] = f;
		}
	}
}

/* Powers of ten exact in a double (<= 10^22) and in a long double with a
 * 64-bit or wider significand (<= 10^27: 5^27 < 2^64). */
static const double pow10_d[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#if LDBL_MANT_DIG >= 64
static const long double pow10_ld[] = {
	1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L,
	1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L,
	1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
#endif

/* Append the decimal digits at p (up to e) to *m: returns the first
 * non-digit.  Eight at a time where the bytes are little-endian words. */
static const char *digits(const char *p, const char *e, uint64_t *m)
{
	uint64_t v = *m;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (e - p >= 8) {
		uint64_t x;
		memcpy(&x, p, 8);
		/* all eight bytes in '0'..'9'? (0x30..0x39: high nibble 3, and
		 * adding 6 does not carry out of the low nibble) */
		if (((x & UINT64_C(0xF0F0F0F0F0F0F0F0)) |
		     (((x + UINT64_C(0x0606060606060606)) & UINT64_C(0xF0F0F0F0F0F0F0F0)) >> 4)) !=
		    UINT64_C(0x3333333333333333))
			break;
		x -= UINT64_C(0x3030303030303030);
		x = x * 10 + (x >> 8); /* pairs of digits */
		x = (((x & UINT64_C(0x000000FF000000FF)) * (100 + (UINT64_C(1000000) << 32))) +
		     (((x >> 16) & UINT64_C(0x000000FF000000FF)) * (1 + (UINT64_C(10000) << 32)))) >> 32;
		v = v * 100000000 + x;
		p += 8;
	}
#endif
	for (; p < e && (unsigned)(*p - '0') <= 9; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	*m = v;
	return p;
}

/* s[0..len) as a double, exactly the value parse_f64 (strtod) gives, and
 * its result: 0 ok, -1 not a number.  Fast for the feedback the logs hold,
 * plain decimals "digits[.digits]" of at most 19 significant digits
 * (Python's repr of a time has 17): the value is m / 10^f with integers m
 * < 2^64 and f <= 27.  With m <= 2^53 and f <= 22 both are exact doubles
 * and one IEEE division rounds correctly (Clinger's fast path).  Otherwise
 * a long double division (>= 64-bit significand) gives q = the value
 * rounded to 64 bits; rounding q to 53 bits is then the correctly rounded
 * value unless q lies exactly halfway between two doubles (the only case
 * where rounding twice can differ from rounding once), which goes to
 * strtod, as does everything else (exponents, "inf", signs, > 19 digits). */
static int parse_ms(const char *s, size_t len, double *out)
{
	const char *p = s, *e = s + len, *d0;
	uint64_t m = 0; /* wraps beyond 19 digits: then unused */
	while (p < e && *p == '0')
		p++; /* leading zeros */
	int any = p > s;
	d0 = p;
	p = digits(p, e, &m);
	long nd = p - d0, frac = 0;
	any |= nd > 0;
	if (p < e && *p == '.') {
		const char *f0 = ++p;
		if (m == 0)
			while (p < e && *p == '0')
				p++; /* zeros before the first significant digit */
		d0 = p;
		p = digits(p, e, &m);
		nd += p - d0;
		frac = p - f0;
		any |= frac > 0;
	}
	if (p != e || !any || nd > 19 || frac > 27)
		return parse_f64(s, len, out);
	if (m <= (UINT64_C(1) << 53) && frac <= 22) {
		*out = (double)m / pow10_d[frac];
		return 0;
	}
#if LDBL_MANT_DIG >= 64
	long double q = (long double)m / pow10_ld[frac];
	double v = (double)q;
	if ((long double)v != q) {
		double o = nextafter(v, q > (long double)v ? INFINITY : -INFINITY);
		if (q == ((long double)v + (long double)o) / 2)
			return parse_f64(s, len, out); /* a tie: strtod decides */
	}
	*out = v;
	return 0;
#else
	return parse_f64(s, len, out);
#endif
}

/* The choice id of the current row's choice (checked the first time it
 * is seen): the successor of the previous row's choice if it matches,
 * else the hash table. */
static int choice_id(ah_reader *r, int prev)
{
	const char *c = r->choice;
	size_t len = r->choice_len;
	if (prev >= 0) {
		int g = r->succ[prev];
		if (g >= 0 && r->choices.len[g] == len && !memcmp(r->choices.str[g], c, len))
			return g;
	}
	int id = intern_find(&r->choices, c, len);
	if (id < 0) {
		if (!*c)
			die("%s:%lld: field 'choice': empty", r->path, (long long)r->lineno);
		const char *bad = emittable_problem(c);
		if (bad)
			die("%s:%lld: field 'choice': '%.200s%s' %s", r->path,
			    (long long)r->lineno, c, len > 200 ? "..." : "", bad);
		id = intern_id(&r->choices, c, len, NULL);
		xgrow((void **)&r->succ, &r->succ_cap, (size_t)r->choices.n, sizeof *r->succ);
		r->succ[id] = -1;
	}
	if (prev >= 0)
		r->succ[prev] = id;
	return id;
}

int ah_next(ah_reader *r)
{
	ah_meta *m = &r->meta;
	ssize_t len;
	/* Blank lines are skipped, as pandas does (the official A100 log has
	 * one); they are counted in r->blank_lines so callers can report them. */
	while ((len = read_line(r)) == 0)
		if (r->blank_lines++ < AH_BLANK_SHOWN)
			r->blank_at[r->blank_lines - 1] = r->lineno;
	if (len < 0)
		return 0;
	char *line = r->line, *end = line + len;
	int nf = m->n_feat, want = nf + 2, n;
	char *p; /* the rest of the line after the feature fields */
	int prev_choice = r->prev_len ? r->choice_id : -1;
	if (r->prev_len && (size_t)len > r->prev_len &&
	    !memcmp(line, r->prev, r->prev_len)) {
		/* the previous row's features, already checked: only cut them */
		for (int j = 0; j < m->n_cat; j++) {
			int i = r->catcol[j];
			r->cat[j] = line + r->foff[i];
			line[r->foff[i + 1] - 1] = '\0';
		}
		r->same_features = 1;
		p = line + r->prev_len;
		n = nf;
	} else {
		if (line[0] == '{')
			die("%s:%lld: a second metadata block starts here (two collections "
			    "written into one log?); split the file and use merge", r->path,
			    (long long)r->lineno);
		p = line;
		for (n = 0; n < nf && p; n++) {
			r->field[n] = p;
			r->foff[n] = (size_t)(p - line);
			p = memchr(p, ',', (size_t)(end - p));
			if (p)
				*p++ = '\0';
		}
		r->same_features = 0;
		if (!p) {
			/* the line ended inside the features */
			die("%s:%lld: row has %d field%s, the header has %d (short row)", r->path,
			    (long long)r->lineno, n, plural_s(n), want);
		}
		r->foff[nf] = (size_t)(p - line);
	}
	/* choice, feedback */
	r->field[n++] = p;
	char *q = memchr(p, ',', (size_t)(end - p));
	if (!q)
		die("%s:%lld: row has %d field%s, the header has %d (short row)", r->path,
		    (long long)r->lineno, n, plural_s(n), want);
	*q++ = '\0';
	r->field[n++] = q;
	if (memchr(q, ',', (size_t)(end - q))) {
		long long got = n;
		for (const char *c = q; (c = memchr(c, ',', (size_t)(end - c))); c++)
			got++;
		die("%s:%lld: row has %lld fields, the header has %d (long row%s)", r->path,
		    (long long)r->lineno, got, want, got == 2LL * want - 1 ? ": two rows "
		    "fused, e.g. a file without its final newline concatenated with the "
		    "next? use merge" : "");
	}
	if (!r->same_features) {
		parse_features(r);
		/* remember the features' text (commas restored) for the next row */
		size_t pl = r->foff[nf];
		size_t cap = r->prev_cap;
		xgrow((void **)&r->prev, &cap, pl, 1);
		r->prev_cap = cap;
		memcpy(r->prev, line, pl);
		for (int i = 1; i <= nf; i++)
			r->prev[r->foff[i] - 1] = ',';
		r->prev_len = pl;
	}
	r->choice = p;
	r->choice_len = (size_t)(q - 1 - p);
	r->choice_id = choice_id(r, prev_choice);
	double v;
	size_t fl = (size_t)(end - q);
	if (parse_ms(q, fl, &v))
		die("%s:%lld: field 'feedback': cannot parse '%s' as a number", r->path,
		    (long long)r->lineno, q);
	if (isnan(v))
		die("%s:%lld: field 'feedback': NaN", r->path, (long long)r->lineno);
	if (v <= 0)
		die("%s:%lld: field 'feedback': %s ms is not a positive time", r->path,
		    (long long)r->lineno, q);
	r->feedback = v;
	return 1;
}

void ah_warn_blank_lines(const ah_reader *r)
{
	if (!r->blank_lines)
		return;
	char at[160];
	size_t o = 0;
	int shown = r->blank_lines < AH_BLANK_SHOWN ? (int)r->blank_lines : AH_BLANK_SHOWN;
	for (int i = 0; i < shown; i++)
		o += (size_t)snprintf(at + o, sizeof at - o, "%s%lld", i ? ", " : "",
		                      (long long)r->blank_at[i]);
	warnf("%s: %lld blank line%s skipped (line%s %s%s)", r->path,
	      (long long)r->blank_lines, r->blank_lines > 1 ? "s" : "",
	      r->blank_lines > 1 ? "s" : "", at, r->blank_lines > shown ? ", ..." : "");
}

void ah_close(ah_reader *r)
{
	ra_stop(r->ahead);
	zm_close(r->zm);
	if (r->fp)
		fclose(r->fp);
	free(r->buf);
	free(r->succ);
	free(r->prev);
	free(r->path_buf);
	intern_free(&r->choices);
	ah_meta_free(&r->meta);
	memset(r, 0, sizeof *r);
}
