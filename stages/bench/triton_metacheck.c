/* triton_metacheck.c — read cache entries back with the C reader
 * (stages/bench/triton_meta.h), no GPU: the CPU test of the AOT tool's
 * output, and a way to look at an entry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triton_meta.h"
#include "util.h"

static const char usage[] =
	"usage: triton_metacheck DIR VARIANT...\n"
	"\n"
	"For each VARIANT, read DIR/VARIANT.json and DIR/VARIANT.cubin as\n"
	"bench's Triton back end does and print one line: variant, status (ok,\n"
	"error, missing), kernel name, shared bytes, threads, num_warps,\n"
	"num_stages, block_m, block_n, the parameter list (name:type), scratch\n"
	"sizes, cubin bytes, or the recorded compile error.  Exit status 1 if an\n"
	"entry is malformed or its cubin does not match its metadata (missing and\n"
	"recorded compile errors are reported, not failures).\n";

static const char *pname[] = {"A", "B", "C", "M", "N", "K", "stride_am", "stride_ak",
                              "stride_bk", "stride_bn"};

int main(int argc, char **argv)
{
	std_options(argc, argv, usage);
	if (argc < 3) {
		fputs(usage, stderr);
		return 1;
	}
	int bad = 0;
	for (int i = 2; i < argc; i++) {
		tl_meta m;
		char why[2048];
		int rc = tl_meta_read(argv[1], argv[i], &m, why, sizeof why);
		if (rc == 1) {
			printf("%s\tmissing\n", argv[i]);
			continue;
		}
		if (rc < 0) {
			printf("%s\tmalformed\t%s\n", argv[i], why);
			bad = 1;
			continue;
		}
		if (!m.ok) {
			printf("%s\terror\t%s\n", argv[i], m.error);
			continue;
		}
		size_t len;
		void *img = tl_cubin_read(argv[1], &m, &len, why, sizeof why);
		if (!img) {
			printf("%s\tbad-cubin\t%s\n", argv[i], why);
			bad = 1;
			continue;
		}
		/* an ELF image (cubin) */
		int elf = len > 4 && !memcmp(img, "\177ELF", 4);
		free(img);
		printf("%s\tok\t%s\tshared=%d\tthreads=%d\tnum_warps=%d\tnum_stages=%d\tblock_m=%d\t"
		       "block_n=%d\tparams=", argv[i], m.name, m.shared, m.threads, m.num_warps,
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
	close_stdout();
	return bad;
}
