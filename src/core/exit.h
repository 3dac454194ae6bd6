/*
 * exit.h — perfledger's exit codes: one documented table for every command
 * (docs/cli.md "Exit codes", `perfledger --help`). The CLI returns them; the one
 * place outside the CLI that needs them is the check renderer, which writes
 * the exit status a check gives into its JSON ("exit_code"), so the enum
 * lives here, in plain data the core may hold, and not in cli/cli.h.
 */
#ifndef PL_EXIT_H
#define PL_EXIT_H

/* Exit codes: one table for all commands (docs/cli.md "Exit codes"). */
enum pl_exit {
	PL_EXIT_OK = 0,         /* success */
	PL_EXIT_REGRESSION = 1, /* regression found (check) or bundle differs (verify) */
	PL_EXIT_USAGE = 2,      /* usage or I/O error */
	PL_EXIT_REFUSED = 3,    /* comparison refused: conditions do not match */
	PL_EXIT_REJECTED = 4,   /* one or more inputs rejected */
	PL_EXIT_TOO_FEW = 5,    /* too few samples to decide */
	PL_EXIT_SUPERSEDED = 6  /* verify: the bundle's runs were corrected since (amended,
	                           retracted or purged), apart from 1 "a file differs" */
};

#endif
