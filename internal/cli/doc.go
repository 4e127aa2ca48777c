// Package cli implements airlock's command line: the subcommands and their
// flags, help, and the single table that turns errors into exit statuses.
// [Main] takes its arguments, streams and environment as parameters, so
// every subcommand can be tested in-process.
package cli
