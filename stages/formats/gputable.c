/* gputable.c — one row of the GPU table; see gputable.h. */
#include "gputable.h"
#include "emittable.h"
#include "core/tsvtext.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decimal digits s as an integer in [lo, hi], else -1. */
static int64_t digits(const char *s, size_t max, int64_t lo, int64_t hi)
{
	size_t n = strlen(s);
	if (n == 0 || n > max || s[0] == '0')
		return -1;
	int64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v >= lo && v <= hi ? v : -1;
}

void gpu_row_read(gpu_row *r, const char *path, const char *name)
{
	const char *bad = emittable_gpu_problem(name);
	if (bad)
		die("--gpu '%.64s': %s (%s)", name, bad, path);
	static const char *const cols[] = {"gpu", "shared_memory", "capability", "device_name"};
	enum { C_GPU, C_SMEM, C_CAP, C_DEV, N_COLS };
	char *buf = tsv_read(path, "the GPU table's header (gpu arch mem_mib ...)");
	char *pos = buf, *l, *f[64], names[512] = "";
	int64_t line = 0;
	int col[N_COLS], hdr = 0, no = 0;
	memset(r, 0, sizeof *r);
	while ((l = tsv_line(&pos, path, &line))) {
		if (l[0] == '#')
			continue;
		int nf = tsv_split(l, f, 64);
		if (nf > 64)
			nf = 64;
		if (!hdr) {
			hdr = 1;
			tsv_columns(f, nf, cols, N_COLS, col);
			for (int c = 0; c < N_COLS; c++)
				if (col[c] < 0)
					die("%s:%" PRId64 ": no column '%s' in the header (the GPU table: "
					    "datasets/GPUS.tsv)", path, line, cols[c]);
			continue;
		}
		for (int c = 0; c < N_COLS; c++)
			if (col[c] >= nf)
				die("%s:%" PRId64 ": field '%s': missing (%d fields)", path, line, cols[c], nf);
		if (strcmp(f[col[C_GPU]], name)) {
			if (no + strlen(f[col[C_GPU]]) + 2 < sizeof names)
				no += snprintf(names + no, sizeof names - (size_t)no, "%s%s", no ? " " : "",
				               f[col[C_GPU]]);
			continue;
		}
		snprintf(r->name, sizeof r->name, "%s", name);
		r->line = line;
		const char *s = f[col[C_SMEM]], *cap = f[col[C_CAP]], *dev = f[col[C_DEV]];
		if ((r->shared_memory = digits(s, 10, 1, 2147483647)) < 0)
			die("%s:%" PRId64 ": field 'shared_memory': '%.40s': expected the opt-in shared "
			    "memory per block in bytes, 1 to 2147483647", path, line, s);
		const char *dot = strchr(cap, '.');
		char major[8] = "";
		if (dot && (size_t)(dot - cap) < sizeof major)
			memcpy(major, cap, (size_t)(dot - cap));
		if (!dot || (r->cap_major = (int)digits(major, 2, 1, 99)) < 0 || dot[1] < '0' ||
		    dot[1] > '9' || dot[2])
			die("%s:%" PRId64 ": field 'capability': '%.40s': expected a compute "
			    "capability MAJOR.MINOR (major 1..99, minor 0..9)", path, line, cap);
		r->cap_minor = dot[1] - '0';
		if ((bad = emittable_device_name_problem(dev)))
			die("%s:%" PRId64 ": field 'device_name': '%.40s': %s", path, line, dev, bad);
		snprintf(r->device_name, sizeof r->device_name, "%s", dev);
		free(buf);
		return;
	}
	if (!hdr)
		die("%s: no header line (the GPU table: datasets/GPUS.tsv)", path);
	die("--gpu '%s': no such row in %s (its rows: %s)", name, path, names);
}
