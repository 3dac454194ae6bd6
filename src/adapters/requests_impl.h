/*
 * requests_impl.h — readers of per-request data inside the adapters layer
 * (private to src/adapters/). Each fills run->requests (core/requests.h)
 * from one tool's layout and checks it (pl_requests_check): a bad request
 * refuses the record, naming the request by its 0-based index.
 */
#ifndef PL_REQUESTS_IMPL_H
#define PL_REQUESTS_IMPL_H

#include <cjson/cJSON.h>

#include "core/error.h"
#include "core/model.h"

/* vLLM --save-detailed / SGLang --output-details arrays of obj (ttfts,
 * itls, input_lens, output_lens, errors) -> run->requests. No ttfts: 0 and
 * nothing set. Returns 0, PL_EINVALID (arrays of different lengths, a
 * value of the wrong type, a bad request: err names it) or PL_ENOMEM. */
int pl_requests_from_vllm(const cJSON *obj, struct pl_run *run, struct pl_error *err);

/* The "requests" member of an export line (base64 of the stored blob) ->
 * run->requests with only its blob set (the store decodes and checks it).
 * Absent: 0. Returns 0, PL_EINVALID (not a string, not base64) or PL_ENOMEM. */
int pl_requests_from_export(const cJSON *obj, struct pl_run *run, struct pl_error *err);

#endif
