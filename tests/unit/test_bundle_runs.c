/*
 * test_bundle_runs.c — a bundle's runs named by content (render/bundle_runs.c):
 * the bundle id over the inputs (an exact value), the order and numbering of
 * the runs whatever order they come in, sources shown without the author's
 * machine paths, runs wound back to a time (--as-of) and the errata since an
 * earlier bundle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/carried.h"
#include "core/model.h"
#include "render/bundle.h"

static const char def[] = "{\"name\": \"t\", \"axis\": \"hardware\"}\n";

static void ident(struct pl_bundle_ident *v, char c, long record, char rid, int revision,
                  char line)
{
	memset(v, 0, sizeof(*v));
	memset(v->sha256, c, 64);
	memset(v->line, line, 64);
	v->record = record;
	if (rid)
		memset(v->record_id, rid, 32);
	v->revision = revision;
}

/* The id is a sha256 over the inputs: this exact value (computed apart, by
 * Python's hashlib over the documented text), whatever order the runs come
 * in; any input changes it. */
static void test_bundle_id(void **state)
{
	struct pl_bundle_ident v[2];
	char id[PL_BUNDLE_ID_SIZE], other[PL_BUNDLE_ID_SIZE];

	(void)state;
	ident(&v[0], 'b', 2, 'c', 3, 'e');
	ident(&v[1], 'a', 0, 0, 1, 'd');
	pl_bundle_ident_sort(v, 2);
	assert_int_equal(v[0].sha256[0], 'a');
	assert_int_equal(pl_bundle_id_compute(def, strlen(def), "en", 1790000000, "0.1.0", v, 2, id), 0);
	assert_string_equal(id, "plb1-a17ceabbb5c52c88feab3ec3e0bf3ebd");
	/* another language, epoch, version, revision: another id */
	assert_int_equal(pl_bundle_id_compute(def, strlen(def), "zh-CN", 1790000000, "0.1.0", v, 2,
	                                      other), 0);
	assert_string_not_equal(id, other);
	assert_int_equal(pl_bundle_id_compute(def, strlen(def), "en", 1790000001, "0.1.0", v, 2,
	                                      other), 0);
	assert_string_not_equal(id, other);
	v[1].revision = 4;
	assert_int_equal(pl_bundle_id_compute(def, strlen(def), "en", 1790000000, "0.1.0", v, 2,
	                                      other), 0);
	assert_string_not_equal(id, other);
	v[1].revision = 3;
	v[1].line[0] = 'f'; /* the run's content */
	assert_int_equal(pl_bundle_id_compute(def, strlen(def), "en", 1790000000, "0.1.0", v, 2,
	                                      other), 0);
	assert_string_not_equal(id, other);
}

static struct pl_run *add(struct pl_run_list *l, char c, long record, const char *source,
                          long long id)
{
	struct pl_run *r = pl_run_list_push(l);

	memset(r->sha256, c, 64);
	r->record = record;
	r->id = id;
	r->revision = 1;
	assert_int_equal(pl_strset(&r->source, source), 0);
	assert_int_equal(pl_strset(&r->imported_at, "2026-09-21T14:13:20Z"), 0);
	return r;
}

/* The same runs in any order get the same order and numbers; absolute
 * sources lose the author's directories. */
static void test_canonical(void **state)
{
	struct pl_run_list l;
	struct pl_error err;

	(void)state;
	pl_run_list_init(&l);
	pl_error_init(&err);
	add(&l, 'c', 0, "/home/alice/bench/h100/run1.json", 7);
	add(&l, 'a', 1, "/home/alice/bench/b200/run2.json", 3);
	add(&l, 'a', 0, "samples/x.json", 12);
	assert_int_equal(pl_bundle_runs_canonical(&l, &err), 0);
	assert_int_equal(l.v[0].sha256[0], 'a');
	assert_int_equal(l.v[0].record, 0);
	assert_int_equal(l.v[0].id, 1);
	assert_string_equal(l.v[0].source, "samples/x.json");
	assert_int_equal(l.v[1].record, 1);
	assert_int_equal(l.v[1].id, 2);
	assert_string_equal(l.v[1].source, "bench/b200/run2.json");
	assert_int_equal(l.v[2].id, 3);
	assert_string_equal(l.v[2].source, "bench/h100/run1.json");
	pl_run_list_release(&l);

	/* one absolute file: its directory's name and the file */
	pl_run_list_init(&l);
	add(&l, 'a', 0, "/tmp/x/r.json", 1);
	assert_int_equal(pl_bundle_runs_relative(&l), 0);
	assert_string_equal(l.v[0].source, "x/r.json");
	pl_run_list_release(&l);
}

static void revision(struct pl_run *r, int rev, const char *field, const char *old,
                     const char *now, const char *at)
{
	struct pl_revision v = {0, rev, (char *)field, (char *)old, (char *)now, (char *)at,
	                        (char *)"misreported", (char *)"alice"};

	if (!r->carried)
		r->carried = pl_carried_new();
	assert_non_null(r->carried);
	assert_int_equal(pl_revision_list_push(&r->carried->revisions, &v), 0);
	if (rev > r->revision)
		r->revision = rev;
}

static void retraction(struct pl_run *r, const char *at, const char *restored)
{
	struct pl_retraction v = {0, (char *)at, (char *)"throttled", (char *)"bob",
	                          (char *)restored, (char *)(restored ? "fine after all" : NULL),
	                          (char *)(restored ? "carol" : NULL)};

	if (!r->carried)
		r->carried = pl_carried_new();
	assert_non_null(r->carried);
	assert_int_equal(pl_retraction_list_push(&r->carried->retractions, &v), 0);
}

/* --as-of: amends after the time undone, runs imported after it left out,
 * retractions and restores after it not yet made. */
static void test_as_of(void **state)
{
	struct pl_run_list l;
	struct pl_error err;
	struct pl_run *r;

	(void)state;
	pl_run_list_init(&l);
	pl_error_init(&err);
	r = add(&l, 'a', 0, "a.json", 1);
	assert_int_equal(pl_run_set_cond(r, PL_C_DRIVER_VERSION, "550.54.16", &err), 0);
	revision(r, 2, "driver_version", "550.54.15", "550.54.16", "2026-09-21T14:15:00Z");
	r = add(&l, 'b', 0, "b.json", 2);
	retraction(r, "2026-09-21T14:16:40Z", NULL);
	r->retracted = 1;
	r = add(&l, 'c', 0, "c.json", 3);
	assert_int_equal(pl_strset(&r->imported_at, "2026-09-22T00:00:00Z"), 0);

	assert_int_equal(pl_bundle_runs_as_of(&l, "2026-09-21T14:13:20Z", &err), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].cond[PL_C_DRIVER_VERSION].text, "550.54.15");
	assert_int_equal(l.v[0].revision, 1);
	assert_int_equal(l.v[0].carried->revisions.n, 0);
	assert_int_equal(l.v[1].retracted, 0);
	assert_int_equal(l.v[1].carried->retractions.n, 0);
	pl_run_list_release(&l);
}

/* The errata since a time, in time order: amended (each field), retracted,
 * restored, added; nothing at or before the time. */
static void test_errata(void **state)
{
	struct pl_run_list l;
	struct pl_error err;
	struct pl_bundle_erratum *e = NULL;
	size_t n = 0;
	struct pl_run *r;

	(void)state;
	pl_run_list_init(&l);
	pl_error_init(&err);
	r = add(&l, 'a', 0, "a.json", 1);
	revision(r, 2, "driver_version", "550.54.15", "550.54.16", "2026-09-21T14:15:00Z");
	revision(r, 2, "cuda_version", "12.4", "12.5", "2026-09-21T14:15:00Z");
	revision(r, 3, "hardware", "x", "y", "2026-09-21T14:13:20Z"); /* at the time: not since */
	r = add(&l, 'b', 0, "b.json", 2);
	retraction(r, "2026-09-21T14:16:40Z", "2026-09-21T14:20:00Z");
	r = add(&l, 'c', 0, "c.json", 3);
	assert_int_equal(pl_strset(&r->imported_at, "2026-09-21T14:18:00Z"), 0);

	assert_int_equal(pl_bundle_errata(&l, "2026-09-21T14:13:20Z", NULL, &e, &n, &err), 0);
	assert_int_equal(n, 5);
	assert_int_equal(e[0].kind, PL_ERRATUM_AMENDED);
	assert_string_equal(e[0].rev->field, "driver_version");
	assert_int_equal(e[1].kind, PL_ERRATUM_AMENDED);
	assert_string_equal(e[1].rev->field, "cuda_version");
	assert_int_equal(e[2].kind, PL_ERRATUM_RETRACTED);
	assert_int_equal(e[3].kind, PL_ERRATUM_ADDED);
	assert_string_equal(e[3].at, "2026-09-21T14:18:00Z");
	assert_int_equal(e[4].kind, PL_ERRATUM_RESTORED);
	free(e);
	/* until: the restore after it is left out */
	assert_int_equal(pl_bundle_errata(&l, "2026-09-21T14:13:20Z", "2026-09-21T14:19:00Z", &e, &n,
	                                  &err), 0);
	assert_int_equal(n, 4);
	free(e);
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bundle_id),
		cmocka_unit_test(test_canonical),
		cmocka_unit_test(test_as_of),
		cmocka_unit_test(test_errata),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
