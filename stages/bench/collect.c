/* collect.c — bench SHAPES LOG: measure the shard's inputs into an
 * AutoHeuristic log (args.h bench_collect; spec §1 log format; design.md
 * "Resumable").  The log is built in LOG.part, one input's rows at a time,
 * each block fsync'd (ahlog.h appender); when every input of the shard is
 * in it, LOG.part is renamed to LOG.  A restart resumes LOG.part: complete
 * inputs are skipped (resume_scan), a partially written trailing input is
 * truncated. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "block.h"
#include "progress.h"
#include "util.h"

/* The screening settings of LOG.part, which its rows cannot show (a
 * screened-out candidate has no row whatever B and T were): kept in the
 * sidecar LOG.part.plan (one line "screen=B screen_ms=T audit=A"; the log's
 * own lines must stay Inductor's) from the first run of the shard until
 * LOG is complete.  A resumed part whose sidecar says otherwise is refused;
 * for a part without one (an older bench's) this run's settings are
 * assumed, with a message, and written.
 * Returns the sidecar's path (malloc'd). */
static char *plan_check(const char *part, const bench_opts *o, int resumed)
{
	char want[128];
	snprintf(want, sizeof want, "screen=%.17g screen_ms=%.17g audit=%d\n",
	         o->screen, o->screen > 0 ? o->screen_ms : 0.0, o->screen_audit);
	char *path = xmalloc(strlen(part) + 8);
	sprintf(path, "%s.plan", part);
	if (resumed && access(path, F_OK) == 0) {
		size_t len;
		char *have = read_file(path, &len);
		if (strcmp(have, want) != 0) {
			size_t hl = strlen(have), wl = strlen(want);
			die("%s was made with %.*s, this run has %.*s: resume with the same "
			    "--screen/--screen-ms/--screen-audit (make: SCREEN, SCREEN_MS), or "
			    "remove %s to start over", part, (int)(hl ? hl - 1 : 0), have,
			    (int)(wl - 1), want, part);
		}
		free(have);
		return path;
	}
	if (resumed)
		fprintf(stderr, "bench: %s: no %s (written by an older bench, or removed): "
		        "assuming it was made with this run's screening settings\n", part, path);
	aout ao;
	FILE *fp = aout_open(&ao, path);
	fputs(want, fp);
	aout_commit(&ao);
	return path;
}

/* Open (or resume) part for plan p: the appender at the end of the
 * complete inputs, *planf the sidecar's path.  Returns the number of
 * inputs already done. */
static int64_t collect_open(const bench_args *a, const bench_device *dev, const char *part,
                            bench_input *const *todo, int64_t ntodo, const bench_plan *p,
                            ah_appender *ap, char **planf)
{
	const bench_opts *o = &a->o;
	char *meta = ah_mm_meta_json(dev->smem_optin, dev->cap_major, dev->cap_minor);
	char *body;
	size_t body_len, keep;
	ah_append_open(ap, part, meta, ah_mm_header(), &body, &body_len);
	*planf = plan_check(part, o, body_len > 0);
	int64_t done = resume_scan(part, body, body_len, todo, ntodo, p, o->reps, o->fast_reject,
	                           o->screen_audit ? 0 : o->screen, &keep);
	if (keep < body_len) {
		fprintf(stderr, "bench: %s: dropping %zu bytes of a partially written input\n",
		        part, body_len - keep);
		ah_append_truncate(ap, keep);
	}
	free(body);
	free(meta);
	fprintf(stderr, "bench: device %d (%s, sm_%d%d, %" PRId64 " B smem/block), shard %d/%d: "
	        "%" PRId64 " inputs, %" PRId64 " already done\n", o->device, dev->name,
	        dev->cap_major, dev->cap_minor, dev->smem_optin, o->shard, o->nshards,
	        ntodo, done);
	return done;
}

/* Measure todo[done..ntodo) into ap, one block per input, until done or
 * --time-limit (then *stopped = 1).  Returns the inputs done; *rows gets
 * the rows written. */
static int64_t collect_loop(const bench_args *a, measurer *m, bench_input *const *todo,
                            int64_t done, int64_t ntodo, const bench_plan *p, ah_appender *ap,
                            int64_t *rows, int *stopped)
{
	const bench_opts *o = &a->o;
	bench_cand cand[BENCH_MAX_CAND];
	double *fb = xmalloc(sizeof *fb * (size_t)o->reps * BENCH_MAX_CAND);
	double t0 = mono_s();
	char what[96];
	snprintf(what, sizeof what, "bench[dev %d shard %d/%d]", o->device, o->shard, o->nshards);
	progress prog;
	progress_start(&prog, what, "inputs", ntodo);
	progress_update(&prog, done);
	*rows = 0;
	*stopped = 0;
	for (; done < ntodo; done++) {
		if (a->time_limit >= 0 && mono_s() - t0 >= a->time_limit) {
			*stopped = 1;
			break;
		}
		const bench_input *in = todo[done];
		int nc = plan_candidates(p, in, cand);
		measure_input(m, in, cand, nc, o->reps, fb);
		size_t bl;
		char *blk = format_block(in, cand, nc, o->reps, o->fast_reject, fb, &bl);
		ah_append_block(ap, blk, bl);
		for (size_t q = 0; q < bl; q++)
			*rows += blk[q] == '\n';
		free(blk);
		progress_update(&prog, done + 1);
	}
	progress_end(&prog, done);
	free(fb);
	return done;
}

int bench_collect(const bench_args *a, measurer *m, const bench_device *dev,
                  bench_input *const *todo, int64_t ntodo, const bench_plan *p)
{
	const bench_opts *o = &a->o;
	const char *log = a->log;
	if (access(log, F_OK) == 0)
		die("'%s' exists: this shard is complete (remove it to measure again)", log);
	char *part = xmalloc(strlen(log) + 8), *planf;
	sprintf(part, "%s.part", log);
	ah_appender ap;
	int64_t resumed = collect_open(a, dev, part, todo, ntodo, p, &ap, &planf), rows;
	int stopped;
	double t0 = mono_s();
	int64_t done = collect_loop(a, m, todo, resumed, ntodo, p, &ap, &rows, &stopped);
	double wall = mono_s() - t0;
	ah_append_close(&ap);
	if (!stopped && rename(part, log) != 0)
		die("cannot rename '%s' to '%s': %s", part, log, strerror(errno));
	if (!stopped && unlink(planf) != 0 && errno != ENOENT)
		die("cannot remove '%s': %s", planf, strerror(errno));
	if (a->stats) {
		aout so;
		FILE *sf = aout_open(&so, a->stats);
		fprintf(sf, "key\tvalue\n");
		fprintf(sf, "device\t%s\nshard\t%d/%d\ninputs_total\t%" PRId64
		        "\ninputs_resumed\t%" PRId64 "\ninputs_measured\t%" PRId64
		        "\nrows_written\t%" PRId64 "\nwall_s\t%.3f\n", dev->name,
		        o->shard, o->nshards, ntodo, resumed, done - resumed, rows, wall);
		measure_stats(m, sf);
		aout_commit(&so);
	}
	fprintf(stderr, "bench: %" PRId64 "/%" PRId64 " inputs in %s (%" PRId64
	        " measured in %.1f s)%s\n", done, ntodo, stopped ? part : log,
	        done - resumed, wall, stopped ? ": stopped by --time-limit, rerun to resume" : "");
	free(planf);
	free(part);
	return stopped ? 2 : 0;
}
