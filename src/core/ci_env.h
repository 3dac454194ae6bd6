/*
 * ci_env.h — the build identity of a run from a CI system's standard
 * environment variables (`perfledger import --from-ci-env`, issue 14).
 *
 * Each CI documents the variables it sets in every job; this module maps
 * them onto the four build fields of a run (model.h, enum pl_build_field).
 * The environment is read through a callback, so the mapping is pure and
 * tested with fixed tables. Sources of the mapping:
 *   GitHub Actions  https://docs.github.com/en/actions/reference/variables-reference
 *                   ("Default environment variables")
 *   GitLab CI       https://docs.gitlab.com/ci/variables/predefined_variables/
 *   Buildkite       https://buildkite.com/docs/pipelines/configure/environment-variables
 *   Jenkins         https://www.jenkins.io/doc/book/pipeline/jenkins-file/#using-environment-variables
 *                   ($JENKINS_URL/env-vars.html) and the Git plugin's GIT_COMMIT,
 *                   GIT_BRANCH (https://plugins.jenkins.io/git/#plugin-content-environment-variables)
 *
 *   field       GitHub Actions            GitLab CI           Buildkite               Jenkins
 *   detected by GITHUB_ACTIONS=true       GITLAB_CI=true      BUILDKITE=true          JENKINS_URL set
 *   commit      GITHUB_SHA                CI_COMMIT_SHA       BUILDKITE_COMMIT        GIT_COMMIT
 *   branch      GITHUB_HEAD_REF (pull     CI_COMMIT_REF_NAME  BUILDKITE_BRANCH        BRANCH_NAME (multibranch),
 *               request), else            (branch or tag)     (or BUILDKITE_TAG)      else GIT_BRANCH
 *               GITHUB_REF_NAME
 *   build_id    GITHUB_RUN_ID             CI_PIPELINE_ID      BUILDKITE_BUILD_NUMBER  BUILD_TAG
 *                                                                                     (jenkins-JOB-NUMBER)
 *   ci_run_url  GITHUB_SERVER_URL/        CI_PIPELINE_URL     BUILDKITE_BUILD_URL     BUILD_URL
 *               GITHUB_REPOSITORY/
 *               actions/runs/GITHUB_RUN_ID
 * A variable that is unset or empty leaves its field unknown. The first CI
 * of the table whose marker is set wins.
 */
#ifndef PL_CI_ENV_H
#define PL_CI_ENV_H

#include <stddef.h>

#include "core/error.h"
#include "core/model.h"

/* Reads one environment variable: its value, or NULL when unset. */
typedef const char *(*pl_getenv_fn)(void *ctx, const char *name);

/* The CI systems recognised. */
enum pl_ci {
	PL_CI_NONE,
	PL_CI_GITHUB,   /* GitHub Actions */
	PL_CI_GITLAB,   /* GitLab CI */
	PL_CI_BUILDKITE,
	PL_CI_JENKINS
};

/* Name of a CI ("GitHub Actions", "GitLab CI", "Buildkite", "Jenkins",
 * "none"). */
const char *pl_ci_name(enum pl_ci ci);

/*
 * Detects the CI from the environment (get, ctx) and fills out[f] for each
 * build field (enum pl_build_field) with a malloc'ed copy of its value, or
 * NULL when the CI does not give it; the caller frees each with free().
 * *ci receives the CI detected. Returns 0 (also when no CI is detected: then
 * *ci is PL_CI_NONE and every out[f] NULL) or PL_ENOMEM (out all NULL).
 */
int pl_ci_env_build(pl_getenv_fn get, void *ctx, enum pl_ci *ci, char *out[PL_BUILD_COUNT],
                    struct pl_error *err);

/*
 * The variables the detected CI ci should set for the commit and the run
 * link (ci_run_url) that are unset or empty, in the table's order (GitHub:
 * GITHUB_SHA, then GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID, all
 * three needed for the link): their names (static storage) into
 * names[0..max). Returns how many are missing (0 for PL_CI_NONE): a job
 * that looks like CI but cannot say which commit it measured is worth a
 * warning, not a silent import.
 */
size_t pl_ci_env_missing(pl_getenv_fn get, void *ctx, enum pl_ci ci, const char **names,
                         size_t max);

#endif
