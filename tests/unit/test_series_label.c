/*
 * test_series_label.c — the one series label (core/series_label.h): the
 * identity alone, siblings told apart by the condition they differ in
 * (driver_version, engine_version as identity, an extra condition), a
 * condition one sibling lacks, the --where names, and the site's labels
 * (render/site_impl.h) grouping siblings found in a walk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/series_label.h"
#include "render/site_impl.h"

/* A series' conditions: model m, 1x H100, vllm 0.9.2, c=8, in/out, and a
 * driver (NULL: none). */
struct fake {
	struct pl_value cond[PL_COND_COUNT];
	struct pl_extra extra[1];
	size_t nextra;
};

static void set(struct fake *f, int id, const char *text)
{
	f->cond[id].set = text != NULL;
	f->cond[id].text = (char *)text;
}

static void make(struct fake *f, const char *conc, const char *driver)
{
	memset(f, 0, sizeof(*f));
	set(f, PL_C_MODEL, "m");
	set(f, PL_C_HARDWARE, "1x NVIDIA H100 80G");
	set(f, PL_C_ENGINE, "vllm");
	set(f, PL_C_ENGINE_VERSION, "0.9.2");
	set(f, PL_C_CONCURRENCY, conc);
	set(f, PL_C_INPUT_TOKENS, "1024");
	set(f, PL_C_MAX_OUTPUT_TOKENS, "128");
	set(f, PL_C_PRECISION, "bf16");
	set(f, PL_C_DRIVER_VERSION, driver);
}

static struct pl_label_src src_of(const struct fake *f)
{
	struct pl_label_src s = {f->cond, NULL, f->extra, f->nextra};
	return s;
}

static void test_identity(void **state)
{
	struct fake a;
	struct pl_label_src s;
	unsigned char varies[PL_COND_COUNT] = {0};
	char buf[256];

	(void)state;
	make(&a, "8", "550.54.15");
	s = src_of(&a);
	assert_string_equal(pl_series_label(buf, sizeof(buf), &s, NULL, PL_C_NONE, "x"),
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128");
	/* the axis left out, and a varying field */
	varies[PL_C_HARDWARE] = 1;
	s.varies = varies;
	assert_string_equal(pl_series_label(buf, sizeof(buf), &s, NULL, PL_C_CONCURRENCY, "x"),
	                    "m / vllm 0.9.2 / in=1024 out=128");
	/* nothing known: the caller's word */
	memset(&a, 0, sizeof(a));
	s = src_of(&a);
	assert_string_equal(pl_series_label(buf, sizeof(buf), &s, NULL, PL_C_NONE, "all runs"),
	                    "all runs");
	/* truncated, terminated */
	make(&a, "8", NULL);
	s = src_of(&a);
	assert_string_equal(pl_series_label(buf, 8, &s, NULL, PL_C_NONE, "x"), "m / 1x ");
	assert_int_equal(pl_series_label_identity(PL_C_ENGINE_VERSION), 1);
	assert_int_equal(pl_series_label_identity(PL_C_DRIVER_VERSION), 0);
}

static void test_siblings(void **state)
{
	struct fake f[4];
	struct pl_label_src s[4];
	char *labels[4];

	(void)state;
	make(&f[0], "8", "550.54.15");
	make(&f[1], "8", "570.86.15");
	make(&f[2], "1", "550.54.15"); /* another identity: no sibling */
	make(&f[3], "8", NULL);        /* a sibling without a driver */
	for (int i = 0; i < 4; i++)
		s[i] = src_of(&f[i]);
	assert_int_equal(pl_series_labels(s, 4, NULL, "x", labels), 0);
	assert_string_equal(labels[0],
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128 / "
	                    "driver_version=550.54.15");
	assert_string_equal(labels[1],
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128 / "
	                    "driver_version=570.86.15");
	assert_string_equal(labels[2], "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=1 / in=1024 out=128");
	assert_string_equal(labels[3],
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128 / "
	                    "driver_version=-");
	for (int i = 0; i < 4; i++)
		free(labels[i]);

	/* engine versions are identity: named there, nothing added */
	make(&f[0], "8", "550.54.15");
	make(&f[1], "8", "550.54.15");
	set(&f[1], PL_C_ENGINE_VERSION, "0.10.0");
	/* an extra condition and precision tell the other two apart */
	make(&f[2], "8", "550.54.15");
	set(&f[2], PL_C_PRECISION, "fp8");
	f[2].extra[0].name = "vllm-serving.best_of";
	f[2].extra[0].value = "2";
	f[2].nextra = 1;
	for (int i = 0; i < 3; i++)
		s[i] = src_of(&f[i]);
	assert_int_equal(pl_series_labels(s, 3, NULL, "x", labels), 0);
	assert_string_equal(labels[0],
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128 / "
	                    "precision=bf16");
	assert_string_equal(labels[1], "m / 1x NVIDIA H100 80G / vllm 0.10.0 / c=8 / in=1024 out=128");
	assert_string_equal(labels[2],
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128 / "
	                    "precision=fp8 / vllm-serving.best_of=2");
	for (int i = 0; i < 3; i++)
		free(labels[i]);
}

static void test_named(void **state)
{
	struct fake f;
	struct pl_label_src s;
	struct pl_label_siblings named;
	char *label;

	(void)state;
	make(&f, "8", "570.86.15");
	s = src_of(&f);
	memset(&named, 0, sizeof(named));
	named.differs[PL_C_DRIVER_VERSION] = 1; /* --where driver_version=570.86.15 */
	assert_int_equal(pl_series_labels(&s, 1, &named, "x", &label), 0);
	assert_string_equal(label, "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128 / "
	                           "driver_version=570.86.15");
	free(label);
}

/* The site's two-step labels: collected from one run per series, found
 * by the key hash. */
static void test_site_labels(void **state)
{
	struct pl_site_labels L;
	struct pl_run r[3];

	(void)state;
	memset(&L, 0, sizeof(L));
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 3; i++) {
		struct fake f;
		make(&f, i == 2 ? "1" : "8", i == 1 ? "570.86.15" : "550.54.15");
		memcpy(r[i].cond, f.cond, sizeof(f.cond));
		assert_int_equal(pl_site_labels_add(&L, &r[i], 100ull - (unsigned long long)i), 0);
	}
	assert_int_equal(pl_site_labels_finish(&L), 0);
	assert_string_equal(pl_site_labels_find(&L, 100),
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128 / "
	                    "driver_version=550.54.15");
	assert_string_equal(pl_site_labels_find(&L, 99),
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=8 / in=1024 out=128 / "
	                    "driver_version=570.86.15");
	assert_string_equal(pl_site_labels_find(&L, 98),
	                    "m / 1x NVIDIA H100 80G / vllm 0.9.2 / c=1 / in=1024 out=128");
	assert_string_equal(pl_site_labels_find(&L, 7), "(no key conditions)");
	pl_site_labels_release(&L);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_siblings),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_site_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
