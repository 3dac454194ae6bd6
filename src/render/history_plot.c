/*
 * history_plot.c — history.dat + history.gp, rendered by gnuplot
 * (see history_plot.h).
 *
 * history.dat holds up to four data blocks separated by two blank lines:
 * the points (always), the steps that are not accepted, the accepted steps,
 * the failure marks of points with failed runs (each only when there is
 * one). A failed run is drawn as a red cross near the bottom of the plot at
 * its point, so that a night where every request failed is a mark, not a
 * gap. history.gp is written after the blocks
 * are known and refers to them by index; it contains no input text. The
 * y range is computed here from the numbers so that the step lines span the
 * whole plot.
 */
#include "render/history_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "render/render_impl.h"

/* What both writers need. */
struct hjob {
	const struct pl_history *h; /* the history */
	double ylo, yhi;            /* plot range */
	size_t nopen, naccepted;    /* steps not accepted / accepted */
};

/* s as a gnuplot data string: in double quotes, '"' -> '\'', backslash
 * doubled, control and bidi-override characters and invalid UTF-8 as spaces,
 * so the string ends where we say and cannot change the terminal. */
static void dat_string(FILE *fp, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	fputc('"', fp);
	while (n > 0) {
		unsigned long cp = 0;
		size_t k = pl_utf8_decode(s, n, &cp);
		int bad = k == 0 || cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) ||
		          (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);

		if (k == 0)
			k = 1;
		if (bad)
			fputc(' ', fp);
		else if (cp == '"')
			fputc('\'', fp);
		else if (cp == '\\')
			fputs("\\\\", fp);
		else
			fwrite(s, 1, k, fp);
		s += k;
		n -= k;
	}
	fputc('"', fp);
}

static void dat_num(FILE *fp, double v)
{
	char buf[40];

	/* beyond what a chart draws (pl_history_build() leaves implausible
	 * values out; this holds for any history given): missing */
	fputs(isfinite(v) && fabs(v) <= 1e15 ? pl_fmt_num(buf, sizeof(buf), v) : "NaN", fp);
}

/* What the points are: the --by field for run and version groups (as the
 * table and older charts say), else the group ("day", "build", "commit"). */
static const char *by_label(const struct pl_history *h)
{
	return h->group == PL_G_DAY || h->group == PL_G_BUILD || h->group == PL_G_COMMIT
	           ? pl_group_name(h->group)
	           : pl_cond_info[h->by].name;
}

/* x of point i: its index, or with a time axis its time in days after the
 * first point's, so that the spacing is proportional to time. */
static double point_x(const struct pl_history *h, size_t i)
{
	if (!h->time_axis)
		return (double)i;
	return (h->points[i].t - h->points[0].t) / 86400.0;
}

/* The latest point with a median (failed-only points are marks): the one
 * history.c judged as the latest. */
static size_t latest_point(const struct pl_history *h)
{
	size_t i = h->npoints;

	while (i > 1 && h->points[i - 1].n == 0)
		i--;
	return i - 1;
}

static int write_dat(FILE *fp, void *ctx, struct pl_error *err)
{
	const struct hjob *job = ctx;
	const struct pl_history *h = job->h;
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	size_t tick_every = h->npoints > 12 ? (h->npoints + 11) / 12 : 1;

	(void)err;
	fprintf(fp, "# perfledger history data: %s (%s) by %s\n", mi->name, pl_unit_label(mi->unit),
	        by_label(h));
	fputs("# block 0, points: x (index, or days after the first point)\tmedian\tci_low\tci_high\tlevel\tlabel\ttick\n"
	      "# (ci_low = ci_high = median when a point has too few runs for a 95% interval)\n",
	      fp);
	double level = NAN; /* a failed-only point carries its segment's level on */
	for (size_t i = 0; i < h->npoints; i++) {
		const struct pl_history_point *p = &h->points[i];
		if (!isnan(p->level))
			level = p->level;
		dat_num(fp, point_x(h, i));
		fputc('\t', fp);
		dat_num(fp, p->s.median);
		fputc('\t', fp);
		dat_num(fp, p->s.ci_valid ? p->s.ci_low : p->s.median);
		fputc('\t', fp);
		dat_num(fp, p->s.ci_valid ? p->s.ci_high : p->s.median);
		fputc('\t', fp);
		dat_num(fp, isnan(p->level) ? level : p->level);
		fputc('\t', fp);
		dat_string(fp, p->value.text);
		/* the axis names at most about 12 points, so 30 nights stay legible */
		fputc('\t', fp);
		dat_string(fp, i % tick_every == 0 ? p->value.text : "");
		fputc('\n', fp);
	}
	for (int accepted = 0; accepted < 2; accepted++) {
		if ((accepted ? job->naccepted : job->nopen) == 0)
			continue;
		fprintf(fp, "\n\n# block, %s steps: x\ty_low\ty_high\tlabel\n",
		        accepted ? "accepted" : "open");
		for (size_t k = 0; k < h->nsteps; k++) {
			const struct pl_history_step *s = &h->steps[k];
			char label[1200], d[32];
			if ((s->accepted != NULL) != accepted)
				continue;
			dat_num(fp, (point_x(h, s->index - 1) + point_x(h, s->index)) / 2.0);
			fputc('\t', fp);
			dat_num(fp, job->ylo);
			fputc('\t', fp);
			dat_num(fp, job->yhi);
			fputc('\t', fp);
			pl_fmt_delta(d, sizeof(d), 100.0 * s->rel_change);
			if (s->accepted)
				snprintf(label, sizeof(label), "accepted %s: %s", d, s->accepted->reason);
			else
				snprintf(label, sizeof(label), "step %s%s", d,
				         s->worse ? " worse" : s->better ? " better" : "");
			dat_string(fp, label);
			fputc('\n', fp);
		}
	}
	if (h->nfailed) {
		fputs("\n\n# block, failed runs: x\ty\tlabel\n", fp);
		for (size_t i = 0; i < h->npoints; i++) {
			char label[40];
			if (!h->points[i].nfailed)
				continue;
			dat_num(fp, point_x(h, i));
			fputc('\t', fp);
			dat_num(fp, job->ylo + 0.06 * (job->yhi - job->ylo));
			fputc('\t', fp);
			snprintf(label, sizeof(label), "%zu failed", h->points[i].nfailed);
			dat_string(fp, label);
			fputc('\n', fp);
		}
	}
	if (h->latest_verdict == PL_V_REGRESSION) {
		/* the latest point, a regression against the points before it */
		fputs("\n\n# block, the latest point, a regression: x\tmedian\n", fp);
		dat_num(fp, point_x(h, latest_point(h)));
		fputc('\t', fp);
		dat_num(fp, h->points[latest_point(h)].s.median);
		fputc('\n', fp);
	}
	return ferror(fp) ? PL_EIO : 0;
}

/* One step block: dashed vertical lines and their labels. */
static void gp_steps(FILE *fp, int index, const char *color, const char *title)
{
	fprintf(fp,
	        ", \\\n     '" PL_HISTORY_CHART ".dat' index %d using 1:2:(0):($3-$2) with vectors "
	        "nohead dt 2 lw 1.5 lc rgb \"%s\" title \"%s\""
	        ", \\\n     '' index %d using 1:3:4 with labels left offset 1.5,-1 rotate by -90 "
	        "tc rgb \"%s\" notitle",
	        index, color, title, index, color);
}

static int write_gp(FILE *fp, void *ctx, struct pl_error *err)
{
	const struct hjob *job = ctx;
	const struct pl_history *h = job->h;
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	char lo[40], hi[40], xmax[40];
	const char *how = "median of each point, 95% interval of the median";
	int index = 1, any_ci = 0;
	size_t most = 0;

	(void)err;
	for (size_t i = 0; i < h->npoints; i++) {
		any_ci |= h->points[i].s.ci_valid;
		most = h->points[i].n > most ? h->points[i].n : most;
	}
	if (!any_ci) /* the title promises no interval the chart cannot draw */
		how = most <= 1 ? "median of each point; one run per point, too few for a 95% interval"
		                : "median of each point; too few runs per point for a 95% interval";
	pl_fmt_num(lo, sizeof(lo), job->ylo);
	pl_fmt_num(hi, sizeof(hi), job->yhi);
	pl_fmt_num(xmax, sizeof(xmax), point_x(h, h->npoints - 1) + 0.5);
	fprintf(fp,
	        "# perfledger history chart: %s (%s) by %s\n"
	        "# re-plot with: gnuplot " PL_HISTORY_CHART ".gp (reads " PL_HISTORY_CHART
	        ".dat, writes " PL_HISTORY_CHART ".svg and " PL_HISTORY_CHART ".png)\n"
	        "set encoding utf8\n"
	        "set terminal svg size 1000,560 noenhanced font \"sans,10\" background rgb \"white\"\n"
	        "set termoption noenhanced\n"
	        "set output '" PL_HISTORY_CHART ".svg'\n"
	        "set datafile separator \"\\t\"\n"
	        "set datafile missing \"NaN\"\n"
	        "set grid ytics\n"
	        "set key outside top center horizontal\n"
	        "set xrange [-0.5:%s]\n"
	        "set yrange [%s:%s]\n"
	        "set xtics rotate by 45 right\n"
	        "set bmargin 10\n"
	        "set lmargin 16\n" /* room for the first rotated tick label */
	        "set title \"%s by %s (%s)\"\n"
	        "set ylabel \"%s (%s)\"\n"
	        "set xlabel \"%s%s\"\n"
	        "plot '" PL_HISTORY_CHART ".dat' index 0 using 1:2:3:4:xtic(7) with yerrorbars "
	        "pt 7 ps 0.7 lc rgb \"#1f4e9e\" title \"median\""
	        ", \\\n     '' index 0 using 1:5 with histeps lw 1.5 lc rgb \"#777777\" "
	        "title \"fitted level\"",
	        mi->name, pl_unit_label(mi->unit), by_label(h), xmax, lo, hi, mi->name, by_label(h), how,
	        mi->name, pl_unit_label(mi->unit), by_label(h),
	        h->time_axis ? " (days after the first point, to scale)" : "");
	if (job->nopen)
		gp_steps(fp, index++, "#c0392b", "step");
	if (job->naccepted)
		gp_steps(fp, index++, "#1e8449", "accepted step");
	if (h->nfailed) {
		fprintf(fp,
		        ", \\\n     '' index %d using 1:2 with points pt 2 ps 1.6 lw 2 lc rgb \"#c0392b\" "
		        "title \"failed run (no request completed)\""
		        ", \\\n     '' index %d using 1:2:3 with labels offset 0,1.2 tc rgb \"#c0392b\" "
		        "notitle",
		        index, index);
		index++;
	}
	if (h->latest_verdict == PL_V_REGRESSION)
		fprintf(fp,
		        ", \\\n     '" PL_HISTORY_CHART ".dat' index %d using 1:2 with points pt 6 ps 2.5 "
		        "lw 2 lc rgb \"#c0392b\" title \"latest point: regression\"",
		        index++);
	fputs("\n"
	      "set terminal pngcairo size 1000,560 noenhanced font \"sans,10\" background rgb \"white\"\n"
	      "set termoption noenhanced\n"
	      "set output '" PL_HISTORY_CHART ".png'\n"
	      "replot\n"
	      "set output\n",
	      fp);
	return ferror(fp) ? PL_EIO : 0;
}

/* Writes DIR/history<ext> through fn. */
static int write_one(const char *dir, const char *ext, int (*fn)(FILE *, void *, struct pl_error *),
                     struct hjob *job, struct pl_error *err)
{
	char name[32];
	char *path;
	int rc;

	snprintf(name, sizeof(name), PL_HISTORY_CHART "%s", ext);
	path = pl_fs_path(dir, name);
	if (!path)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_fs_write_atomic(path, fn, job, err);
	free(path);
	return rc;
}

int pl_plot_history(const char *dir, const struct pl_history *h, struct pl_error *err)
{
	struct hjob job = {h, INFINITY, -INFINITY, 0, 0};
	int rc;

	if (h->npoints == 0)
		return pl_error_set(err, PL_EEMPTY, "no points to plot");
	for (size_t i = 0; i < h->npoints; i++) {
		const struct pl_history_point *p = &h->points[i];
		double lo = p->s.ci_valid ? p->s.ci_low : p->s.median;
		double hi = p->s.ci_valid ? p->s.ci_high : p->s.median;
		if (!(fabs(lo) <= 1e15) || !(fabs(hi) <= 1e15))
			continue; /* not drawn (dat_num()): out of the range too */
		job.ylo = fmin(job.ylo, fmin(lo, p->level));
		job.yhi = fmax(job.yhi, fmax(hi, p->level));
	}
	{
		double span = job.yhi - job.ylo;
		if (!(span > 0))
			span = fabs(job.yhi) > 0 ? fabs(job.yhi) * 0.1 : 1;
		job.ylo = pl_round_sig(job.ylo - 0.15 * span, 4);
		job.yhi = pl_round_sig(job.yhi + 0.15 * span, 4);
		if (job.ylo < 0 && h->points[0].s.min >= 0)
			job.ylo = 0;
		if (!isfinite(job.ylo) || !isfinite(job.yhi)) { /* every point failed */
			job.ylo = 0;
			job.yhi = 1;
		}
	}
	for (size_t k = 0; k < h->nsteps; k++) {
		if (h->steps[k].accepted)
			job.naccepted++;
		else
			job.nopen++;
	}
	if ((rc = write_one(dir, ".dat", write_dat, &job, err)) ||
	    (rc = write_one(dir, ".gp", write_gp, &job, err)))
		return rc;
	return pl_plot_run_script(dir, PL_HISTORY_CHART, err);
}
