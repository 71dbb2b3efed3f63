/* triton_metacheck.c — read cache entries back with the C reader
 * (stages/gpu/bench/triton_meta.h), no GPU: the CPU test of the AOT tool's
 * output, and a way to look at an entry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/opts.h"
#include "gpu/bench/triton_meta.h"
#include "core/util.h"

static const char synopsis[] = "triton_metacheck DIR VARIANT...";

static const char about[] =
	"For each VARIANT, read DIR/VARIANT.json and DIR/VARIANT.cubin as\n"
	"bench's Triton back end does and print one line: variant, status (ok,\n"
	"error, missing), kernel name, shared bytes, threads, num_warps,\n"
	"num_stages, block_m, block_n, the parameter list (name:type), scratch\n"
	"sizes, cubin bytes, or the recorded compile error.\n";

static const char notes[] =
	"Exit status 1 if an entry is malformed or its cubin does not match its\n"
	"metadata (missing and recorded compile errors are reported, not failures).\n";

static const char *pname[] = {"A", "B", "C", "M", "N", "K", "stride_am", "stride_ak",
                              "stride_bk", "stride_bn"};

int main(int argc, char **argv)
{
	const char *dir = NULL;
	opt_list vs = { 0 };
	const opt table[] = {
		OPT_POS("DIR", &dir, OPT_REQUIRED, "a cubin cache entry folder (triton_aot.py --entry-dir)"),
		OPT_POS_LIST("VARIANT...", &vs, OPT_REQUIRED, "variant names (triton_cands --variants)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 14, NULL}, argc, argv);
	int bad = 0;
	for (int j = 0; j < vs.n; j++) {
		const char *v = vs.v[j];
		tl_meta m;
		char why[2048];
		int rc = tl_meta_read(dir, v, &m, why, sizeof why);
		if (rc == 1) {
			printf("%s\tmissing\n", v);
			continue;
		}
		if (rc < 0) {
			printf("%s\tmalformed\t%s\n", v, why);
			bad = 1;
			continue;
		}
		if (!m.ok) {
			printf("%s\terror\t%s\n", v, m.error);
			continue;
		}
		size_t len;
		void *img = tl_cubin_read(dir, &m, &len, why, sizeof why);
		if (!img) {
			printf("%s\tbad-cubin\t%s\n", v, why);
			bad = 1;
			continue;
		}
		/* an ELF image (cubin) */
		int elf = len > 4 && !memcmp(img, "\177ELF", 4);
		free(img);
		printf("%s\tok\t%s\tshared=%d\tthreads=%d\tnum_warps=%d\tnum_stages=%d\tblock_m=%d\t"
		       "block_n=%d\tparams=", v, m.name, m.shared, m.threads, m.num_warps,
		       m.num_stages, m.block_m, m.block_n);
		for (int p = 0; p < m.nparams; p++)
			printf("%s%s:%s", p ? "," : "", pname[m.param[p].what],
			       m.param[p].type == TL_PTR ? (m.param[p].elem == 2 ? "ptr16" : "ptr32")
			       : m.param[p].type == TL_I32 ? "i32" : "i64");
		printf(",global_scratch,profile_scratch\tscratch=%lld/%lld\tcubin=%zu%s\tarch=sm_%d\ttriton=%s\n",
		       (long long)m.gscratch_size, (long long)m.pscratch_size, len, elf ? "(ELF)" : "(not ELF!)",
		       m.arch, m.triton_version);
		if (!elf)
			bad = 1;
	}
	free(vs.v);
	close_stdout();
	return bad;
}
