/*
 * yaml_util.h — YAML documents as cJSON trees (adapters layer only).
 *
 * The only user of libyaml. A YAML file is read with libyaml's document
 * loader and converted to the same cJSON tree a JSON file gives, so an
 * adapter reads both serialisations of one report with one converter.
 * Plain scalars resolve as YAML 1.1 does for the values tools write: null,
 * ~ and an empty value -> null; true/false -> booleans; decimal numbers ->
 * numbers (checked strtod); .inf -> the string "inf" (as bare Infinity in
 * JSON); .nan -> rejected. Quoted scalars stay strings. Duplicate keys,
 * nesting deeper than 1000 levels and documents whose aliases expand them
 * past 16 times their own nodes plus 100000, or their text past 16 times
 * the file plus 1 MiB (alias bombs), are rejected with line and column.
 */
#ifndef PL_YAML_UTIL_H
#define PL_YAML_UTIL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/error.h"

/* Parses the first document of buf[0..len) into *out (free with
 * cJSON_Delete). Returns 0, PL_ESYNTAX, PL_EINVALID or PL_ENOMEM with err
 * located in path. */
int pl_yaml_parse(const char *path, const char *buf, size_t len, cJSON **out,
                  struct pl_error *err);

#endif
