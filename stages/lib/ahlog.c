/* ahlog.c — strict AutoHeuristic log reader, see ahlog.h (spec §1). */
#include "ahlog.h"
#include "ahmeta.h"
#include "emittable.h"
#include "sniff.h"
#include "util.h"

#include <errno.h>
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
		die("%s: header has %d columns but the metadata lists %d features "
		    "(expected %d columns: the features, 'choice', 'feedback')",
		    where, p ? n + 1 : n, m->n_num + m->n_cat, want);
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

/* Read one line into r->line without its '\n'.  Returns length, or -1 at
 * EOF.  Rejects '\r' (CRLF) and NUL bytes. */
static ssize_t read_line(ah_reader *r)
{
	errno = 0;
	ssize_t n = getline(&r->line, &r->cap, r->fp);
	if (n < 0) {
		if (ferror(r->fp))
			die("cannot read '%s': %s", r->path, strerror(errno));
		return -1;
	}
	r->lineno++;
	r->missing_newline = 0;
	if (n > 0 && r->line[n - 1] == '\n')
		r->line[--n] = '\0';
	else
		r->missing_newline = 1;
	if (r->lineno == 1)
		sniff_or_die(r->path, r->line, (size_t)n);
	ah_reject_cr(r->path, (long long)r->lineno, r->line, (size_t)n);
	if (strlen(r->line) != (size_t)n)
		die("%s:%lld: NUL byte in line", r->path, (long long)r->lineno);
	return n;
}

void ah_open(ah_reader *r, const char *path)
{
	ah_open_named(r, path, NULL);
}

void ah_open_named(ah_reader *r, const char *file, const char *name)
{
	memset(r, 0, sizeof *r);
	const char *path = name ? name : !strcmp(file, "-") ? "standard input" : file;
	r->path = path;
	r->fp = !strcmp(file, "-") ? stdin : fopen(file, "r");
	if (!r->fp)
		die("cannot open '%s': %s", file, strerror(errno));
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
}

/* White space or a control character: would break the feat TSV (tabs) or
 * the emitted code, and is never in a str() of a logged value. */
static int has_space_or_ctrl(const char *v)
{
	for (const unsigned char *c = (const unsigned char *)v; *c; c++)
		if (*c <= ' ' || *c == 0x7f)
			return 1;
	return 0;
}

static const char *cat_check(const ah_meta *m, int j, const char *v)
{
	const char *name = m->cat[j];
	if (!*v)
		return "empty value";
	if (has_space_or_ctrl(v))
		return "contains white space or a control character";
	if (!strcmp(name, "mat1_dtype") || !strcmp(name, "mat2_dtype")) {
		if (strcmp(v, "torch.float16") && strcmp(v, "torch.bfloat16") &&
		    strcmp(v, "torch.float32") && strncmp(v, "torch.", 6))
			return "unknown dtype (expected torch.float16, torch.bfloat16, torch.float32, ...)";
		if (!strncmp(v, "torch.", 6) && !v[6])
			return "unknown dtype";
		for (const char *c = v + 6; *c; c++)
			if (!(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9') && *c != '_')
				return "unknown dtype (torch.<lower-case name> expected)";
	} else if (!strcmp(name, "mat1_iscontig") || !strcmp(name, "mat2_iscontig")) {
		if (strcmp(v, "True") && strcmp(v, "False"))
			return "expected True or False";
	} else if (!strcmp(name, "using_tf32")) {
		if (strcmp(v, "True") && strcmp(v, "False") && strcmp(v, "not_float_32"))
			return "expected True, False or not_float_32";
	}
	return NULL;
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
	if (r->line[0] == '{')
		die("%s:%lld: a second metadata block starts here (two collections written "
		    "into one log?); split the file and use merge", r->path,
		    (long long)r->lineno);
	int want = m->n_feat + 2, n = 0;
	char *p = r->line;
	while (p) {
		if (n == want) {
			long long got = n + 1;
			for (const char *c = p; (c = strchr(c, ',')); c++)
				got++;
			die("%s:%lld: row has %lld fields, the header has %d (long row%s)",
			    r->path, (long long)r->lineno, got, want,
			    got == 2LL * want - 1 ? ": two rows fused, e.g. a file without "
			    "its final newline concatenated with the next? use merge" : "");
		}
		r->field[n++] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	if (n != want)
		die("%s:%lld: row has %d fields, the header has %d (short row)", r->path,
		    (long long)r->lineno, n, want);
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
			const char *why = cat_check(m, -1 - kind, f);
			if (why)
				die("%s:%lld: field '%s': '%s': %s", r->path, (long long)r->lineno,
				    m->feat[i], f, why);
			r->cat[-1 - kind] = f;
		}
	}
	r->choice = r->field[n - 2];
	if (!*r->choice)
		die("%s:%lld: field 'choice': empty", r->path, (long long)r->lineno);
	const char *bad = emittable_problem(r->choice);
	if (bad)
		die("%s:%lld: field 'choice': '%s' %s", r->path, (long long)r->lineno,
		    r->choice, bad);
	const char *fb = r->field[n - 1];
	double v;
	if (parse_f64(fb, strlen(fb), &v))
		die("%s:%lld: field 'feedback': cannot parse '%s' as a number", r->path,
		    (long long)r->lineno, fb);
	if (isnan(v))
		die("%s:%lld: field 'feedback': NaN", r->path, (long long)r->lineno);
	if (v <= 0)
		die("%s:%lld: field 'feedback': %s ms is not a positive time", r->path,
		    (long long)r->lineno, fb);
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
	if (r->fp)
		fclose(r->fp);
	free(r->line);
	ah_meta_free(&r->meta);
	memset(r, 0, sizeof *r);
}
