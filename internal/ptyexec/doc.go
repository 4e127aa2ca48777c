// Package ptyexec runs a launch spec for the host: on a pseudo-terminal it
// owns when the user's stdin and stdout are terminals, on the caller's own
// descriptors otherwise. Either way the command's exit status comes back as
// a shell reports it, signals reach the command, and the user's terminal is
// restored on every path out.
package ptyexec
