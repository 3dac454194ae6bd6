/*
 * adapter_impl.h — what each input adapter gives the registry (private).
 *
 * registry.c parses the file into records (json_util.c), picks the adapter
 * (forced by name or the first whose detect() accepts the first record) and
 * calls its convert() once per record on a fresh run whose adapter, source,
 * record and format_version are already set. An adapter only maps keys to
 * canonical conditions and metrics; it never sees files or other records.
 */
#ifndef PL_ADAPTER_IMPL_H
#define PL_ADAPTER_IMPL_H

#include <cjson/cJSON.h>

#include "adapters/adapters.h"
#include "core/error.h"
#include "core/model.h"

struct pl_adapter_impl {
	const struct pl_adapter_info *info; /* public description */
	const char *format_version;         /* stored on each run, or NULL */
	/* 1 if obj (a JSON object: the file's first record) looks like this format. */
	int (*detect)(const cJSON *obj);
	/* Fills run from obj (a JSON object). Returns 0 or a PL_E* code with err set. */
	int (*convert)(const cJSON *obj, struct pl_run *run, struct pl_error *err);
	/* Text (non-JSON) formats only, else NULL: 1 if buf looks like this
	 * format, and the parser that appends one run per record to out (adapter,
	 * source, record and format_version set by it). detect/convert are NULL. */
	int (*detect_text)(const char *path, const char *buf, size_t len);
	int (*parse_text)(const char *path, const char *buf, size_t len, struct pl_run_list *out,
	                  struct pl_error *err);
};

extern const struct pl_adapter_impl pl_adapter_descriptor;
extern const struct pl_adapter_impl pl_adapter_vllm_serving;
extern const struct pl_adapter_impl pl_adapter_sglang;
extern const struct pl_adapter_impl pl_adapter_llmperf;
extern const struct pl_adapter_impl pl_adapter_aiperf;
extern const struct pl_adapter_impl pl_adapter_guidellm;
extern const struct pl_adapter_impl pl_adapter_llama_bench;
extern const struct pl_adapter_impl pl_adapter_inferencemax;
extern const struct pl_adapter_impl pl_adapter_mlperf;
extern const struct pl_adapter_impl pl_adapter_aiperf_csv;
extern const struct pl_adapter_impl pl_adapter_genai_perf_analyze;
extern const struct pl_adapter_impl pl_adapter_inferencemax_csv;

/* CSV files that are recognised and refused (csv_exports.c): the message,
 * or NULL. */
const char *pl_csv_refusal(const char *buf, size_t len);

/* Fills run's conditions from the members of obj, whose keys must be
 * canonical condition names; keys starting with "x_" or "_" are ignored
 * (extension and comment keys). Members named in skip (NULL-terminated, may
 * be NULL) are left for the caller. Unknown keys are PL_EINVALID
 * "unknown field 'k'". Used by the descriptor and by sidecar files. */
int pl_adapter_conditions_from(const cJSON *obj, const char *const *skip, struct pl_run *run,
                               struct pl_error *err);

#endif
