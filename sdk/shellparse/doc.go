// Package shellparse turns a shell command line into the commands that
// would really run, so that rules, heuristics and risk assessors judge what
// executes rather than the words on the line.
//
// It parses with mvdan.cc/sh (never by hand) and walks pipelines, lists,
// subshells, command and process substitutions, redirections, here-documents,
// function bodies and traps. Wrappers that run another command (sudo, env,
// nice, timeout, xargs, find -exec, sh -c and friends) are unwrapped, so
// each real command becomes one [Segment] that still records how it was
// wrapped. What cannot be known before run time (an eval of a variable, a
// command name held in a variable, a shell reading a script from a pipe,
// input that does not parse) is marked opaque and must never be
// auto-allowed.
//
// The host and the built-in assessor share this package; third-party
// assessors may use it too.
package shellparse
