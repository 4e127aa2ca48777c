// Package logging sets up the host's log: a JSON-lines file under the XDG
// state directory, never the user's terminal. The broker writes go-plugin's
// hclog output, every plugin's stderr included, into the same file through
// Writer; this package does not import hclog, so the airlock binary does
// not pay for it at start-up.
package logging

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// EnvLevel selects the log level: trace, debug, info, warn or error.
const EnvLevel = "AIRLOCK_LOG"

// Log keys, so every record names things the same way.
const (
	KeyPlugin  = "plugin"
	KeyKind    = "kind"
	KeyPath    = "path"
	KeyError   = "error"
	KeyElapsed = "elapsed"
)

// Logger is the host's log: slog for airlock's own records, and the file
// itself for other writers (the broker's hclog).
type Logger struct {
	Slog *slog.Logger
	// Writer is the log file, or io.Discard.
	Writer io.Writer
	Level  string
	close  func() error
}

// Close flushes and closes the log file.
func (l *Logger) Close() error {
	if l.close == nil {
		return nil
	}
	return l.close()
}

// Open opens (creating) stateDir/airlock.log. If the file cannot be opened
// the log is discarded: logging must never stop a command.
func Open(stateDir, level string) *Logger {
	level = strings.ToLower(level)
	if level == "" {
		level = "info"
	}
	var w io.Writer = io.Discard
	closeFn := func() error { return nil }
	if err := os.MkdirAll(stateDir, 0o700); err == nil {
		if f, err := os.OpenFile(filepath.Join(stateDir, "airlock.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err == nil {
			w, closeFn = f, f.Close
		}
	}
	return &Logger{
		Slog:   slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slogLevel(level)})),
		Writer: w,
		Level:  level,
		close:  closeFn,
	}
}

// Discard returns a logger that writes nowhere, for tests.
func Discard() *Logger {
	return &Logger{Slog: slog.New(slog.DiscardHandler), Writer: io.Discard, Level: "error"}
}

func slogLevel(s string) slog.Level {
	switch s {
	case "trace", "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}
