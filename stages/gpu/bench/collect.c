/* collect.c — bench SHAPES LOG: measure the shard's inputs into an
 * AutoHeuristic log (args.h bench_collect; spec §1 log format; design.md
 * "Resumable").  The log is built in LOG.part, one input's rows at a time,
 * each block fsync'd (ahlog.h appender); when every input of the shard is
 * in it, LOG.part is renamed to LOG.  A restart resumes LOG.part: complete
 * inputs are skipped (resume_scan), a partially written trailing input is
 * truncated.  Inputs the back end skips (plan_skip) have no rows.  When
 * the shard completes, LOG.versions.tsv says what measured it. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "block.h"
#include "core/progress.h"
#include "core/util.h"
#include "gpu/policy/tlimit.h"

/* The fields of two plan lines (collect.c plan_check's, flattened: fields
 * "key=value" separated by ' ' or ';') that differ, as "key X there, Y
 * here" items ("none" for a field one of them lacks), into out. */
static void plan_diff(const char *have, const char *want, char *out, size_t outlen)
{
	const char *side[2] = { have, want };
	size_t used = 0;
	out[0] = '\0';
	for (int s = 0; s < 2; s++) {
		for (const char *f = side[s]; *f;) {
			size_t flen = strcspn(f, " ;"), klen = strcspn(f, "=");
			if (klen > flen)
				klen = flen;
			/* this field's value on the other side, NULL when absent */
			const char *o = side[!s], *ov = NULL;
			size_t ovlen = 0;
			for (const char *g = o; *g;) {
				size_t glen = strcspn(g, " ;");
				if (glen > klen && strncmp(g, f, klen) == 0 && g[klen] == '=') {
					ov = g + klen + 1;
					ovlen = glen - klen - 1;
					break;
				}
				g += glen + (g[glen] != '\0');
			}
			const char *v = f + klen + (klen < flen);
			size_t vlen = flen - klen - (klen < flen);
			int same = ov && ovlen == vlen && strncmp(ov, v, vlen) == 0;
			/* a field of both sides is said once, from the part's side */
			if (!same && (s == 0 || !ov) && used < outlen) {
				const char *hv = s == 0 ? v : ov, *wv = s == 0 ? ov : v;
				int hl = (int)(s == 0 ? vlen : ovlen), wl = (int)(s == 0 ? ovlen : vlen);
				int n = snprintf(out + used, outlen - used, "%s%.*s %.*s there, %.*s here",
				                 used ? "; " : "", (int)klen, f, hv ? hl : 4,
				                 hv ? hv : "none", wv ? wl : 4, wv ? wv : "none");
				used += n > 0 ? (size_t)n : 0;
			}
			f += flen + (f[flen] != '\0');
		}
	}
}

/* The screening settings of LOG.part, which its rows cannot show (a
 * screened-out candidate has no row whatever B and T were), and the
 * long-kernel rule's (how its times were taken): kept in the sidecar
 * LOG.part.plan (one line "screen=B screen_ms=T audit=A", followed by
 * " long_ms=L long_launches=N" when the rule is on: a part made before it
 * existed, or with --long-ms 0, has the same line as Inductor's method;
 * then " loser_ratio=L" when the loser cut is on, so that a part made
 * without it resumes unchanged, then " warm_from_verify=1" when the
 * warm-up from verification is on, likewise, then " verify_cut=S
 * verify_cut_audit=K" when the verification cut is on, likewise, then
 * " clock=C" when --clock is not inductor, likewise; the log's
 * own lines must stay Inductor's) from the first run of the shard until LOG
 * is complete.  A resumed part whose sidecar says otherwise is refused,
 * naming the sidecar and the fields that differ (plan_diff);
 * for a part without one (an older bench's) this run's settings are
 * assumed, with a message, and written.
 * Returns the sidecar's path (malloc'd). */
static char *plan_check(const char *part, const bench_opts *o, const char *ident, int resumed)
{
	char *want = xmalloc(384 + strlen(ident)), lng[80] = "", los[48] = "", vc[64] = "";
	if (o->long_ms > 0)
		snprintf(lng, sizeof lng, " long_ms=%.17g long_launches=%d", o->long_ms,
		         o->long_launches);
	if (o->loser_ratio > 0)
		snprintf(los, sizeof los, " loser_ratio=%.17g", o->loser_ratio);
	if (o->verify_cut > 0)
		snprintf(vc, sizeof vc, " verify_cut=%.17g verify_cut_audit=%d", o->verify_cut,
		         o->verify_cut_audit);
	char clk[24] = "";
	if (o->clock != BENCH_CLOCK_INDUCTOR)
		snprintf(clk, sizeof clk, " clock=%s", bench_clock_names[o->clock]);
	sprintf(want, "screen=%.17g screen_ms=%.17g audit=%d%s%s%s%s%s\n%s",
	        o->screen, o->screen > 0 ? o->screen_ms : 0.0, o->screen_audit, lng, los,
	        o->warm_from_verify ? " warm_from_verify=1" : "", vc, clk, ident);
	char *path = xmalloc(strlen(part) + 8);
	sprintf(path, "%s.plan", part);
	if (resumed && access(path, F_OK) == 0) {
		size_t len;
		char *have = read_file(path, &len);
		if (strcmp(have, want) != 0) {
			/* one line: newlines of the identity lines as '; ' */
			for (char *q = have; *q; q++)
				*q = *q == '\n' ? (q[1] ? ';' : '\0') : *q == '\t' ? '=' : *q;
			for (char *q = want; *q; q++)
				*q = *q == '\n' ? (q[1] ? ';' : '\0') : *q == '\t' ? '=' : *q;
			char diff[512];
			plan_diff(have, want, diff, sizeof diff);
			die("%s was made with %s, this run has %s (%s: %s): resume with the same "
			    "--screen/--screen-ms/--screen-audit/--long-ms/--long-launches/"
			    "--loser-ratio/--warm-from-verify/--verify-cut/--verify-cut-audit/--clock (make: "
			    "SCREEN, SCREEN_MS, LONG_MS, LONG_LAUNCHES, LOSER_RATIO, WARM_FROM_VERIFY, "
			    "VERIFY_CUT, VERIFY_CUT_AUDIT, BENCH_EXTRA; h200_collect.sh: CLOCK) and the "
			    "same back end (tables, cubins), or remove %s to start over", part, have,
			    want, path, diff, part);
		}
		free(have);
		free(want);
		return path;
	}
	if (resumed)
		fprintf(stderr, "bench: %s: no %s (written by an older bench, or removed): "
		        "assuming it was made with this run's screening settings\n", part, path);
	aout ao;
	FILE *fp = aout_open(&ao, path);
	fputs(want, fp);
	aout_commit(&ao);
	free(want);
	return path;
}

/* What identifies the back end's candidates beyond the plan's ids: its
 * plan half's and GPU half's describe() lines ("key\tvalue\n"; e.g. the
 * torch version of the tables, the Triton version of the cubins), "" for
 * none.  malloc'd. */
static char *backend_identity(const bench_plan *p, measurer *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	if (!fp)
		die("open_memstream: out of memory");
	if (p->lists && p->be->plan->describe)
		p->be->plan->describe(p->lists, fp);
	measure_describe(m, fp);
	if (fclose(fp) != 0)
		die("open_memstream: out of memory");
	return buf;
}

/* LOG.versions.tsv, written (atomically) when the shard completes: what
 * measured the log (key/value: backend, the identity lines, measurer,
 * device) for the dataset manifest (datasets/README.md). */
static void versions_write(const char *log, const bench_backend *be, int clock,
                           const char *ident, const bench_device *dev)
{
	char *path = xmalloc(strlen(log) + 16);
	sprintf(path, "%s.versions.tsv", log);
	aout ao;
	FILE *fp = aout_open(&ao, path);
	fprintf(fp, "key\tvalue\nbackend\t%s\n%smeasurer\t%s\ndevice\t%s\n", be->name, ident,
	        measure_kind(), dev->name);
	if (clock != BENCH_CLOCK_INDUCTOR) /* --clock: the log's rows cannot show it */
		fprintf(fp, "clock\t%s\n", bench_clock_names[clock]);
	aout_commit(&ao);
	free(path);
}

/* Open (or resume) part for plan p: the appender at the end of the
 * complete inputs, *planf the sidecar's path.  Returns the number of
 * inputs already done. */
static int64_t collect_open(const bench_args *a, const bench_device *dev, const char *part,
                            bench_input *const *todo, int64_t ntodo, const bench_plan *p,
                            const char *ident, ah_appender *ap, char **planf)
{
	const bench_opts *o = &a->o;
	char *meta = ah_mm_meta_json(dev->smem_optin, dev->cap_major, dev->cap_minor);
	char *body;
	size_t body_len, keep;
	ah_append_open(ap, part, meta, ah_mm_header(), &body, &body_len);
	*planf = plan_check(part, o, ident, body_len > 0);
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
 * --time-limit (then *stopped = 1; *pred_s the prediction of the input not
 * started when that stopped it, stages/gpu/policy/tlimit.h, else 0).
 * Returns the inputs done; *rows gets the rows written. */
static int64_t collect_loop(const bench_args *a, measurer *m, bench_input *const *todo,
                            int64_t done, int64_t ntodo, const bench_plan *p, ah_appender *ap,
                            int64_t *rows, int64_t *skipped, int *stopped, double *pred_s)
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
	*skipped = 0;
	*stopped = 0;
	*pred_s = 0;
	tl_state tl;
	tl_init(&tl, a->time_limit);
	for (; done < ntodo; done++) {
		const bench_input *in = todo[done];
		int nc = plan_candidates(p, in, cand);
		const int kind = tl_kind(in->dtype, in->tf32);
		const double work = tl_work(in->m, in->k, in->n, nc), el = mono_s() - t0;
		double pred;
		int go = tl_decide(&tl, kind, work, el, &pred);
		if (go == TL_PREDICTED) {
			*pred_s = pred;
			fprintf(stderr, "bench: input %" PRId64 " (%s:%" PRId64 ", %" PRId64 "x%" PRId64
			        "x%" PRId64 " %s, %d candidates): predicted %.1f s by this run's "
			        "timings, %.1f s of --time-limit left: not started\n", in->id, a->shapes,
			        in->line, in->m, in->k, in->n, dtype_torch(in->dtype), nc, pred,
			        a->time_limit - el);
		}
		if (go != TL_START) {
			*stopped = 1;
			break;
		}
		if (nc == 0) {
			/* the back end measures nothing here: no rows (resume_scan
			 * recomputes the same empty plan) */
			char why[512];
			plan_skip(p, in, why, sizeof why);
			fprintf(stderr, "bench: input %" PRId64 " (%s:%" PRId64 ", %" PRId64 "x%" PRId64
			        "x%" PRId64 " %s): %s; no rows\n", in->id, a->shapes, in->line, in->m,
			        in->k, in->n, dtype_torch(in->dtype), why);
			++*skipped;
			progress_update(&prog, done + 1);
			continue;
		}
		const double ts = mono_s();
		measure_input(m, in, cand, nc, o->reps, fb);
		tl_learn(&tl, kind, work, mono_s() - ts);
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
	char *ident = backend_identity(p, m);
	int64_t resumed = collect_open(a, dev, part, todo, ntodo, p, ident, &ap, &planf), rows,
	        skipped;
	int stopped;
	double t0 = mono_s(), pred_s;
	int64_t done = collect_loop(a, m, todo, resumed, ntodo, p, &ap, &rows, &skipped, &stopped,
	                            &pred_s);
	double wall = mono_s() - t0;
	ah_append_close(&ap);
	if (!stopped)
		versions_write(log, a->be, a->o.clock, ident, dev);
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
		        "\ninputs_skipped\t%" PRId64 "\nrows_written\t%" PRId64 "\nwall_s\t%.3f\n"
		        "inputs_per_hour\t%.1f\nbackend\t%s\n%s", dev->name, o->shard, o->nshards,
		        ntodo, resumed, done - resumed - skipped, skipped, rows, wall,
		        wall > 0 ? 3600 * (double)(done - resumed - skipped) / wall : 0.0, a->be->name,
		        ident);
		if (o->clock != BENCH_CLOCK_INDUCTOR)
			fprintf(sf, "clock\t%s\n", bench_clock_names[o->clock]);
		if (pred_s > 0)
			fprintf(sf, "stopped_before_s\t%.1f\n", pred_s);
		measure_stats(m, sf);
		aout_commit(&so);
	}
	fprintf(stderr, "bench: %" PRId64 "/%" PRId64 " inputs in %s (%" PRId64
	        " measured in %.1f s, %" PRId64 " skipped)%s\n", done, ntodo, stopped ? part : log,
	        done - resumed - skipped, wall, skipped,
	        stopped ? ": stopped by --time-limit, rerun to resume" : "");
	free(ident);
	free(planf);
	free(part);
	return stopped ? 2 : 0;
}
