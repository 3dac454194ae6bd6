/*
 * core/error.h — the public name of perfledger's error currency, struct
 * pl_error and the PL_E* codes. They live in the util layer (util/error.h)
 * because every layer, util included, reports through them.
 */
#ifndef PL_ERROR_H
#define PL_ERROR_H

#include "util/error.h"

#endif
