/*
 * normalize.h — explicit, tested normalization of condition values.
 *
 * Two runs are comparable only when their condition values are equal after
 * normalization. The rules here are deliberately small and listed one by one
 * (aliases for precisions and engine names, case folding of engine names,
 * the accelerator count read from a hardware string, natural version order);
 * they never merge values that mean different things.
 */
#ifndef PL_NORMALIZE_H
#define PL_NORMALIZE_H

#include "core/error.h"
#include "core/model.h"

/* Canonical form of a precision: lower case, and the aliases
 *   bf16, bfloat16 -> bfloat16;   fp16, float16, half -> float16;
 *   fp32, float32, float -> float32;   float8, fp8 -> fp8 (fp8_e4m3 / fp8_e5m2 kept);
 *   int8, w8a8 kept apart; int4, fp4, nvfp4, mxfp4 kept apart.
 * Returns a heap string the caller frees with free(), or NULL on out of memory. */
char *pl_normalize_precision(const char *s);

/* Canonical form of an engine name: lower case with aliases
 *   tensorrt-llm, tensorrt_llm, trtllm, trt-llm -> trt-llm;  llamacpp, llama-cpp,
 *   llama.cpp -> llama.cpp;  sglang; vllm; tgi, text-generation-inference -> tgi.
 * Unknown names are only lower-cased and trimmed. Caller frees; NULL on OOM. */
char *pl_normalize_engine(const char *s);

/* Canonical form of a deployment: "local", or "cloud-api" for cloud, api,
 * cloud-api, cloud_api (any case). Other values are lower-cased. Caller frees. */
char *pl_normalize_deployment(const char *s);

/* Accelerator count from a hardware string: a leading "N x" / "Nx" / "N×"
 * (e.g. "2x NVIDIA A100 80G" -> 2). Returns the count (>= 1), or 0 when the
 * string does not start with a count. */
long pl_hardware_accelerator_count(const char *hardware);

/* Natural order of two version strings: digit runs compare as numbers,
 * other runs byte-wise, a leading 'v' is ignored ("v0.6.3" == "0.6.3"),
 * so "0.6.3" < "0.10.1" and "b4800" < "b5200". Returns <0, 0, >0. */
int pl_version_cmp(const char *a, const char *b);

/* Applies the rules above to every condition of run in place: trims
 * surrounding white space of text values and folds inner runs of white
 * space to one space, normalizes precision, engine and
 * deployment, strips a leading 'v' from versions, writes times with a UTC
 * offset as the same instant in UTC ("2026-01-02 12:00+02:00" ->
 * "2026-01-02T10:00:00Z", so that times sort as text; zone-less times are
 * kept as given), lower-cases a speculative_method name (a draft model's
 * name, holding a '/', is kept as given), and fills accelerator_count
 * from hardware when it is missing. A disaggregated run (prefill_hardware
 * and decode_hardware both known) gets hardware naming both pools,
 * "prefill 8x b200 + decode 16x h100" (a hardware naming one pool is
 * replaced, with a warning on run), and accelerator_count = the sum of the
 * pools' counts when both are known. A given accelerator_count that disagrees
 * with the hardware string or the pools is an error (PL_EINVALID naming both values).
 * Returns 0, PL_ENOMEM or PL_EINVALID. */
int pl_normalize_run(struct pl_run *run, struct pl_error *err);

/* An extra condition whose key is a condition's own name ("FORMAT.NAME",
 * e.g. "vllm-serving.tensor_parallel_size": a file that records
 * tensor_parallel_size at its top level, which its format does not define)
 * is that condition: where run lacks the condition and the value reads as
 * its type, it becomes the condition; where run has it (from the file, a
 * sidecar, --set or engine_args), the two must be equal after
 * normalization, and the extra is dropped as said twice; a value of the
 * wrong type stays an extra. Run after everything else set the run's
 * conditions. Returns 0, PL_ENOMEM, or PL_EINVALID with err->field = the
 * condition and a message naming both values, e.g. "the file's
 * tensor_parallel_size is 4 but the run's is 8 (from a sidecar, --set or
 * engine_args): they must agree". */
int pl_normalize_named_extras(struct pl_run *run, struct pl_error *err);

/* Normalizes one condition value given as text for field id (as --where and
 * --set values are): same rules as pl_normalize_run. Returns a heap string
 * the caller frees, or NULL on out of memory. */
char *pl_normalize_value(int id, const char *value);

/* Orders two values of condition id: numbers numerically (inf last), versions
 * naturally, times by instant where both are stored times of one zone
 * ("10:00:00Z" < "10:00:00.5Z" = "10:00:00.500Z"; others byte-wise), text
 * byte-wise; missing values sort last. Returns <0, 0, >0. */
int pl_value_cmp(int id, const struct pl_value *a, const struct pl_value *b);

/* 1 if the two values are equal after normalization (both missing counts as
 * equal; missing vs known is not equal), else 0. */
int pl_value_equal(const struct pl_value *a, const struct pl_value *b);

#endif
