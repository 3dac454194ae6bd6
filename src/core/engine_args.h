/*
 * engine_args.h — the launch flags of vLLM and SGLang read from engine_args.
 *
 * engine_args is the engine's command line as given (a descriptor field, a
 * sidecar or --set). The conditions it names — parallelism, KV-cache dtype,
 * batch limits, context length, prefix caching, speculative decoding — are
 * read from it, so that a run launched with --tensor-parallel-size 8 is
 * never pooled with one launched with 4 only because nobody also wrote
 * tensor_parallel_size; and a value given both ways must agree. Pure: no
 * I/O, no third-party library; the importer calls pl_engine_args_apply()
 * after the sidecar and --set are applied and before normalization.
 *
 * The text is split into words as a POSIX shell would (white space
 * separates; '...' is literal; "..." keeps its content with \" and \\
 * escapes; a backslash outside quotes escapes the next character; the
 * operators ; | & ( ) < > end a word; # at the start of a word begins a
 * comment to the end of the line). Words
 * that are not listed flags are ignored (the program name, the model, other
 * flags and their values). A flag takes its value as the next word
 * (--flag N) or after '=' (--flag=N); when a flag is given twice the last
 * one wins, as with the engines' argparse. Flags, by condition:
 *
 *   tensor_parallel_size      --tensor-parallel-size, -tp, --tp-size, --tp
 *   pipeline_parallel_size    --pipeline-parallel-size, -pp, --pp-size
 *   data_parallel_size        --data-parallel-size, -dp, --dp-size, --dp
 *   expert_parallel_size      --ep-size, --expert-parallel-size (SGLang);
 *                             vLLM's --enable-expert-parallel gives
 *                             tensor_parallel_size x data_parallel_size (as
 *                             vLLM sizes its expert-parallel group; each 1
 *                             when its flag is absent, vLLM's default)
 *   kv_cache_dtype            --kv-cache-dtype (text as given)
 *   max_num_seqs              --max-num-seqs
 *   max_num_batched_tokens    --max-num-batched-tokens
 *   max_model_len             --max-model-len, --context-length (SGLang)
 *   prefix_caching            --enable-prefix-caching -> true;
 *                             --no-enable-prefix-caching,
 *                             --disable-radix-cache (SGLang) -> false
 *   speculative_method        --speculative-config '{"method": ...}',
 *                             --speculative-algorithm (SGLang); lower-cased
 *   speculative_draft_tokens  --speculative-config '{"num_speculative_tokens": N}',
 *                             --num-speculative-tokens (older vLLM)
 *   output_includes_reasoning --reasoning-parser NAME (vLLM, SGLang) -> true: the
 *                             server serves a reasoning model, whose
 *                             completion token counts include the reasoning
 *
 * A speculative_method of "unknown" (PL_SPEC_UNKNOWN: the file showed
 * acceptance data without the method) is replaced by the flags' method.
 * Sizes and limits must be whole numbers >= 1. A speculative config without
 * "method" leaves speculative_method missing (vLLM then infers it from the
 * draft model's name; it is not guessed here; engine_args itself is still
 * compared).
 */
#ifndef PL_ENGINE_ARGS_H
#define PL_ENGINE_ARGS_H

#include "core/error.h"
#include "core/model.h"

/* What engine_args says, by condition. Initialise with {0} or
 * pl_engine_flags_init(); release with pl_engine_flags_release(). */
struct pl_engine_flags {
	char *value[PL_COND_COUNT];      /* canonical text the flags give, or NULL;
	                                    owned */
	const char *flag[PL_COND_COUNT]; /* the flag that gave it (static text,
	                                    e.g. "--tensor-parallel-size"), or NULL */
};

void pl_engine_flags_init(struct pl_engine_flags *f);

/* Frees the values; f is empty afterwards. NULL is a no-op. */
void pl_engine_flags_release(struct pl_engine_flags *f);

/*
 * Reads the flags listed above from args (UTF-8 text, not NULL) into f
 * (initialised here). Returns 0; PL_EINVALID with err->field =
 * "engine_args" and a message naming the flag and what it expects (a flag
 * without its value, a size that is not a whole number >= 1, a boolean
 * flag given a value, a speculative config that is not a JSON object, an
 * unterminated quote); or PL_ENOMEM. f is empty on error.
 */
int pl_engine_args_parse(const char *args, struct pl_engine_flags *f, struct pl_error *err);

/*
 * Applies run's engine_args (if set) to run: every condition the flags give
 * is set where the run does not have it; where the run already has a value
 * (from its file, a sidecar or --set), the two must be equal after
 * normalization (numbers numerically, text ignoring case), else
 * PL_EINVALID with err->field = the condition and a message naming both
 * values and the flag, e.g. "tensor_parallel_size is 4 but engine_args
 * says 8 (--tensor-parallel-size): they must agree". Returns 0, PL_EINVALID or PL_ENOMEM;
 * errors of pl_engine_args_parse pass through.
 */
int pl_engine_args_apply(struct pl_run *run, struct pl_error *err);

#endif
