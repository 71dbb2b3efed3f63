/* bench — measure every mm candidate on a GPU and write an AutoHeuristic
 * log (spec §1, §3.4, §3.5; design.md "Resumable", "Parallel").
 *
 * Input:  SHAPES (a shape list, stages/formats/shapes.h; sample's shapes.tsv is
 *         one), the --template back end's kernels and config lists under
 *         --kernels (default kernels/), for --template triton its cubins
 *         (--triton-cubins).
 * Output: LOG (-o LOG, or the second positional), an AutoHeuristic log
 *         byte-compatible with Inductor's
 *         (metadata JSON from the device, header, one row per (input,
 *         candidate, repetition), feedback in ms as Python str(float)),
 *         built in LOG.part and resumable (collect.c); LOG.versions.tsv.
 * Exit:   0 shard complete; 1 error (message on stderr; no GPU, bad files,
 *         sticky CUDA error); 2 stopped by --time-limit (resumable).
 *
 * The bench wing, stages/gpu/bench/ (each header says more):
 *   bench.c     this driver: the modes          args.{c,h}  the command line
 *   collect.c   the log of a shard              online.c    --use-heuristic
 *   discover.c  --lt-discover                   plan.{c,h}  the candidates of an input
 *   inputs.c    the shape list                  configs.{c,h} Triton-style config lists
 *   block.{c,h} log rows, adaptive repetitions  resume.c    resumption scan
 *   screen.{c,h} screening rules and verdicts   lt.{c,h}    cuBLASLt ids and lists
 *   backend.h   the back-end interface          backends.c  the table of back ends
 *   nvrtc.{c,h} NVRTC back end, plan half       measure.h   the measurer interface
 *   triton.{c,h} Triton back end, plan half     triton_gpu.c its GPU half
 *   fake.c      the fake measurer (bench-fake)  cuda*.{c,h} the CUDA measurer and GPU halves
 * build/bin/bench links the CUDA measurer (and libmmcuda, stages/gpu/cuda/),
 * build/bin/bench-fake the fake, so resumption is testable without a GPU.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "core/util.h"

/* --lt-decode ID: the attributes of a cuBLASLt choice id on stdout. */
static int lt_decode(const char *id)
{
	lt_algo al;
	const char *why;
	if (lt_parse_id(id, &al, &why) != 0)
		die("'%s' is not a cuBLASLt choice id (field '%s')", id, why);
	lt_print_attrs(stdout, &al);
	close_stdout();
	return 0;
}

/* --compile-only ARCH [SHAPES]: fill the cubin cache, no GPU needed. */
static int compile_only(const bench_args *a, const void *lists)
{
	if (a->log)
		die("--compile-only takes at most SHAPES, no LOG");
	double t0 = mono_s();
	int64_t nsh = 0;
	bench_input *sh = a->shapes ? shapes_read(a->shapes, &nsh) : NULL;
	int n = measure_precompile(&a->o, a->be, lists, sh, nsh);
	if (sh)
		shapes_free(sh, nsh);
	fprintf(stderr, "bench: compiled %d cubins for %s in %.1f s\n", n, a->o.compile_arch,
	        mono_s() - t0);
	return 0;
}

/* The modes that measure the shard's inputs of SHAPES: --lt-discover,
 * --use-heuristic, or a collection into LOG.  Returns the exit status. */
static int run_shard(bench_args *a, void *lists, const lt_entry *lt, int nlt)
{
	if (!a->shapes || !a->log)
		die("usage: " BENCH_PROG " [options] -o LOG SHAPES, or " BENCH_PROG
		    " [options] SHAPES LOG (see --help)");
	int64_t nin;
	bench_input *inputs = shapes_read(a->shapes, &nin);
	bench_input **todo = xmalloc(sizeof *todo * (size_t)(nin + 1));
	int64_t ntodo = 0;
	for (int64_t i = 0; i < nin; i++)
		if (i % a->o.nshards == a->o.shard)
			todo[ntodo++] = &inputs[i];
	bench_args_screen(a);

	bench_device dev;
	memset(&dev, 0, sizeof dev);
	measurer *m = measure_open(&a->o, a->be, &dev);
	if (lists && !a->no_nvrtc && a->be->plan->fit)
		a->be->plan->fit(lists, &dev);
	bench_plan p = { a->be, a->no_nvrtc ? NULL : lists, lt, nlt, dev.smem_optin };
	int rc = 0;
	if (a->lt_topn)
		bench_discover(a, m, &dev, todo, ntodo);
	else if (a->heur)
		rc = bench_online(a, m, todo, ntodo, &p);
	else
		rc = bench_collect(a, m, &dev, todo, ntodo, &p);
	measure_close(m);
	free(todo);
	shapes_free(inputs, nin);
	return rc;
}

int main(int argc, char **argv)
{
	bench_args a;
	bench_args_parse(&a, argc, argv);
	if (a.ltdecode)
		return lt_decode(a.ltdecode);
	int nlt = 0;
	lt_entry *lt = a.ltpath ? lt_list_read(a.ltpath, &nlt) : NULL;
	/* the back end's config lists (not needed to discover cuBLASLt's) */
	void *lists = a.lt_topn ? NULL : a.be->plan->load(&a.o, a.be->variant);
	int rc = a.o.compile_arch ? compile_only(&a, lists) : run_shard(&a, lists, lt, nlt);
	if (lists)
		a.be->plan->free(lists);
	free(lt);
	close_stdout();
	return rc;
}
