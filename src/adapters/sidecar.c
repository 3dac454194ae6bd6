/*
 * sidecar.c — the bodies of conditions sidecars (NAME.conditions.json).
 *
 * The importer (src/import/parse_file.c) finds and reads a sidecar beside any
 * input file, with its regular-file and size checks, and hands the bytes
 * here. A sidecar is one JSON object: canonical condition keys (as in a
 * descriptor), or an MLPerf systems/NAME.json system description, whose
 * structured fields give the hardware. No adapter opens a sidecar.
 */
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/adapters.h"
#include "adapters/json_util.h"

/* An MLPerf systems/NAME.json description as a conditions sidecar: only its
 * structured fields are read. hardware = "<accelerators_per_node>x
 * <accelerator_model_name>" on one node; on several, "<total>x <name>
 * (<nodes> nodes x <per node>)", so that the hardware's count agrees with
 * accelerator_count = accelerators_per_node x number_of_nodes (the import
 * refuses a disagreement) and the node layout stays in the key. framework
 * and other_software_stack are free text ("TensorRT 10.2.0, CUDA 12.4")
 * and are not parsed into engine or versions: give those with --set. */
static int mlperf_system(const cJSON *sys, struct pl_run *run, struct pl_error *err)
{
	const char *name = NULL;
	double per_node = 0, nodes = 1;
	char hw[256], num[40];
	int rc;

	if ((rc = pl_json_get_string(sys, "accelerator_model_name", &name, err)) < 0)
		return rc;
	if (rc == 1 || !name[0])
		return 0;
	if ((rc = pl_json_get_count(sys, "accelerators_per_node", &per_node, err)) < 0) {
		/* submissions write it as a string too ("8") */
		const char *s = NULL;
		if (pl_json_get_string(sys, "accelerators_per_node", &s, NULL) != 0 ||
		    pl_parse_num(s, 0, &per_node) != 0 || per_node < 1)
			return rc;
		pl_error_init(err);
	}
	if (pl_json_get_count(sys, "number_of_nodes", &nodes, NULL) != 0 || nodes < 1)
		nodes = 1;
	if (per_node >= 1 && nodes > 1) {
		char total[40], n_nodes[40];
		snprintf(hw, sizeof(hw), "%sx %s (%s nodes x %s)",
		         pl_fmt_num(total, sizeof(total), per_node * nodes), name,
		         pl_fmt_num(n_nodes, sizeof(n_nodes), nodes), pl_fmt_num(num, sizeof(num), per_node));
	} else if (per_node >= 1)
		snprintf(hw, sizeof(hw), "%sx %s", pl_fmt_num(num, sizeof(num), per_node), name);
	else
		snprintf(hw, sizeof(hw), "%s", name);
	if ((rc = pl_run_set_cond(run, PL_C_HARDWARE, hw, err)))
		return rc;
	if (per_node >= 1)
		return pl_run_set_cond_num(run, PL_C_ACCELERATOR_COUNT, per_node * nodes, err);
	return 0;
}

int pl_adapters_parse_conditions(const char *path, const char *buf, size_t len,
                                 struct pl_run *run, struct pl_error *err)
{
	cJSON *root = NULL;
	int rc;

	if (!path)
		path = "-";
	rc = pl_json_parse_value(path, buf, len, &root, err);
	if (rc)
		return rc;
	if (!cJSON_IsObject(root)) {
		pl_error_at(err, path, 0, 0);
		rc = pl_error_set(err, PL_EINVALID, "a conditions file must hold one JSON object, got %s",
		                  pl_json_type_name(root));
	} else if (pl_json_get(root, "accelerator_model_name") && pl_json_get(root, "system_type")) {
		rc = mlperf_system(root, run, err);
		if (rc)
			pl_error_at(err, path, 0, 0);
	} else {
		rc = pl_adapter_conditions_from(root, NULL, run, err);
		if (rc)
			pl_error_at(err, path, err ? err->line : 0, err ? err->column : 0);
	}
	cJSON_Delete(root);
	return rc;
}
