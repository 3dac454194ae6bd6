/*
 * ci_env.c — build identity from CI environment variables: which CI, then
 * its variables per build field. See ci_env.h for the table and sources.
 */
#include "core/ci_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pl_ci_name(enum pl_ci ci)
{
	switch (ci) {
	case PL_CI_GITHUB:
		return "GitHub Actions";
	case PL_CI_GITLAB:
		return "GitLab CI";
	case PL_CI_BUILDKITE:
		return "Buildkite";
	case PL_CI_JENKINS:
		return "Jenkins";
	case PL_CI_NONE:
		break;
	}
	return "none";
}

/* The value of name, or NULL when unset or empty. */
static const char *val(pl_getenv_fn get, void *ctx, const char *name)
{
	const char *v = get(ctx, name);
	return v && *v ? v : NULL;
}

/* The first set of names a, b (b may be NULL). */
static const char *first(pl_getenv_fn get, void *ctx, const char *a, const char *b)
{
	const char *v = val(get, ctx, a);
	return v || !b ? v : val(get, ctx, b);
}

static int is_true(pl_getenv_fn get, void *ctx, const char *name)
{
	const char *v = val(get, ctx, name);
	return v && strcmp(v, "true") == 0;
}

static int dup_into(char **dst, const char *s)
{
	if (!s)
		return 0;
	return (*dst = strdup(s)) ? 0 : -1;
}

int pl_ci_env_build(pl_getenv_fn get, void *ctx, enum pl_ci *ci, char *out[PL_BUILD_COUNT],
                    struct pl_error *err)
{
	const char *v[PL_BUILD_COUNT] = {0};
	char *url = NULL;
	int bad = 0;

	for (int f = 0; f < PL_BUILD_COUNT; f++)
		out[f] = NULL;
	*ci = PL_CI_NONE;
	if (is_true(get, ctx, "GITHUB_ACTIONS")) {
		const char *server = val(get, ctx, "GITHUB_SERVER_URL");
		const char *repo = val(get, ctx, "GITHUB_REPOSITORY");
		const char *run = val(get, ctx, "GITHUB_RUN_ID");
		*ci = PL_CI_GITHUB;
		v[PL_B_COMMIT] = val(get, ctx, "GITHUB_SHA");
		v[PL_B_BRANCH] = first(get, ctx, "GITHUB_HEAD_REF", "GITHUB_REF_NAME");
		v[PL_B_BUILD_ID] = run;
		if (server && repo && run) {
			size_t n = strlen(server) + strlen(repo) + strlen(run) + 32;
			if (!(url = malloc(n)))
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			snprintf(url, n, "%s/%s/actions/runs/%s", server, repo, run);
			v[PL_B_CI_RUN_URL] = url;
		}
	} else if (is_true(get, ctx, "GITLAB_CI")) {
		*ci = PL_CI_GITLAB;
		v[PL_B_COMMIT] = val(get, ctx, "CI_COMMIT_SHA");
		v[PL_B_BRANCH] = val(get, ctx, "CI_COMMIT_REF_NAME");
		v[PL_B_BUILD_ID] = val(get, ctx, "CI_PIPELINE_ID");
		v[PL_B_CI_RUN_URL] = val(get, ctx, "CI_PIPELINE_URL");
	} else if (is_true(get, ctx, "BUILDKITE")) {
		*ci = PL_CI_BUILDKITE;
		v[PL_B_COMMIT] = val(get, ctx, "BUILDKITE_COMMIT");
		v[PL_B_BRANCH] = first(get, ctx, "BUILDKITE_BRANCH", "BUILDKITE_TAG");
		v[PL_B_BUILD_ID] = val(get, ctx, "BUILDKITE_BUILD_NUMBER");
		v[PL_B_CI_RUN_URL] = val(get, ctx, "BUILDKITE_BUILD_URL");
	} else if (val(get, ctx, "JENKINS_URL")) {
		*ci = PL_CI_JENKINS;
		v[PL_B_COMMIT] = val(get, ctx, "GIT_COMMIT");
		v[PL_B_BRANCH] = first(get, ctx, "BRANCH_NAME", "GIT_BRANCH");
		v[PL_B_BUILD_ID] = val(get, ctx, "BUILD_TAG");
		v[PL_B_CI_RUN_URL] = val(get, ctx, "BUILD_URL");
	}
	for (int f = 0; f < PL_BUILD_COUNT; f++)
		bad |= dup_into(&out[f], v[f]);
	free(url);
	if (bad) {
		for (int f = 0; f < PL_BUILD_COUNT; f++) {
			free(out[f]);
			out[f] = NULL;
		}
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	return 0;
}

size_t pl_ci_env_missing(pl_getenv_fn get, void *ctx, enum pl_ci ci, const char **names,
                         size_t max)
{
	static const char *const github[] = {"GITHUB_SHA", "GITHUB_SERVER_URL", "GITHUB_REPOSITORY",
	                                     "GITHUB_RUN_ID", NULL};
	static const char *const gitlab[] = {"CI_COMMIT_SHA", "CI_PIPELINE_URL", NULL};
	static const char *const buildkite[] = {"BUILDKITE_COMMIT", "BUILDKITE_BUILD_URL", NULL};
	static const char *const jenkins[] = {"GIT_COMMIT", "BUILD_URL", NULL};
	const char *const *want = ci == PL_CI_GITHUB      ? github
	                          : ci == PL_CI_GITLAB    ? gitlab
	                          : ci == PL_CI_BUILDKITE ? buildkite
	                          : ci == PL_CI_JENKINS   ? jenkins
	                                                  : NULL;
	size_t n = 0;

	for (size_t i = 0; want && want[i]; i++)
		if (!val(get, ctx, want[i])) {
			if (n < max)
				names[n] = want[i];
			n++;
		}
	return n;
}
