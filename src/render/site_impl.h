/*
 * site_impl.h — render-private: the labels of a site's series, found in a
 * first walk over every series before any page is written, so that a
 * series' label names the conditions that tell it from its siblings
 * (core/series_label.h) although the pages stream one series at a time.
 */
#ifndef PL_SITE_IMPL_H
#define PL_SITE_IMPL_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"
#include "core/model.h"

/* Every series' label, by the hash of its condition key. */
struct pl_site_labels {
	struct pl_site_label *v; /* sorted by hash after pl_site_labels_finish(); owned */
	size_t n, cap;
	int done;                /* 1 after pl_site_labels_finish() */
};

/* Adds the series of run r (one of its runs; only conditions and extras are
 * read, and copied) under hash, its condition key's hash. Returns 0 or
 * PL_ENOMEM. */
int pl_site_labels_add(struct pl_site_labels *L, const struct pl_run *r, unsigned long long hash);

/* pl_site_add_fn (site.h) of the first walk: pl_site_labels_add() of
 * runs->v[0] into the struct pl_site_labels *labels. */
int pl_site_labels_collect(void *labels, struct pl_run_list *runs, struct pl_error *err);

/* Labels every series added (pl_series_labels over each group of siblings),
 * freeing the copied conditions. Returns 0 or PL_ENOMEM. */
int pl_site_labels_finish(struct pl_site_labels *L);

/* The label of the series with key hash hash (after finish), or "(no key
 * conditions)" when it was not added. Borrowed until pl_site_labels_release(). */
const char *pl_site_labels_find(const struct pl_site_labels *L, unsigned long long hash);

/* Frees everything; L can be reused after pl_site_labels_init (zeroing). */
void pl_site_labels_release(struct pl_site_labels *L);

/* ---------------------------------- shared by site.c and site_chart.c */

struct pl_history;
struct pl_run_list;

/* pl_html_write_text, with a fast path for the common text that needs no
 * escaping (printable ASCII without & < > " '): dates and numbers fill most
 * of a site, and the escaper writes them a character at a time. Returns 0
 * or PL_EIO. */
int pl_site_html(FILE *f, const char *s);

/* "2026-11-21" of seconds t (since the epoch, UTC) into buf (n bytes).
 * Returns buf. */
char *pl_site_fmt_day(char *buf, size_t n, double t);

/* x positions of h's points in [0, 1], proportional to time; evenly spaced
 * when a time does not parse or all are equal. xs has h->npoints entries
 * (site_chart.c). */
void pl_site_point_x(const struct pl_history *h, double *xs);

/* The index row's sparkline of h (points at xs from pl_site_point_x), an
 * inline SVG of at most 60 points (pl_svg_sparkline), into f
 * (site_chart.c). Returns 0, PL_ENOMEM or PL_EIO. */
int pl_site_sparkline(FILE *f, const struct pl_history *h, const double *xs);

/* The chart of one metric's history (see the file comment of site.h) into
 * f, drawn by pl_svg_timeline (site_chart.c). Input text enters it only
 * escaped: each point's label and commit in its hover title, a step's
 * commit (of its first run; runs ordered by id, may be NULL) in its label;
 * the rest are numbers and days we print. Returns 0, PL_ENOMEM or PL_EIO. */
int pl_site_chart(FILE *f, const struct pl_history *h, const double *xs,
                  const struct pl_run_list *runs);

#endif
