package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Exit statuses of airlock's own making. A command's own status passes
// through unchanged.
const (
	ExitOK      = 0
	ExitRefused = 126 // forbidden, denied, or no approval possible
	ExitError   = 125 // airlock's own error: bad flag, bad config, plugin failure
)

// usageError is a bad command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// refusedError means airlock decided not to run the command.
type refusedError struct{ msg string }

func (e *refusedError) Error() string { return e.msg }

// exitCode maps an error to airlock's exit status and prints its one-line
// reason. Every subcommand returns through here.
func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " ")
	var ue *usageError
	var re *refusedError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "airlock: %s; see 'airlock help'\n", msg)
		return ExitError
	case errors.As(err, &re):
		fmt.Fprintf(stderr, "airlock: refused: %s\n", msg)
		return ExitRefused
	}
	fmt.Fprintf(stderr, "airlock: %s\n", msg)
	return ExitError
}
