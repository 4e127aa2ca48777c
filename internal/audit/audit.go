// Package audit keeps the append-only record of every decision airlock
// makes: one JSON object per line in a file under the state directory.
// Each record is written with a single write under an exclusive lock, so
// many shells writing at once never interleave or lose a record.
package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// FileName is the audit log's name inside the state directory.
const FileName = "audit.jsonl"

// Record is one decision.
type Record struct {
	Time     time.Time `json:"time"`
	Session  string    `json:"session"`
	Cwd      string    `json:"cwd"`
	Argv     []string  `json:"argv"`
	Policy   string    `json:"policy,omitempty"`
	Decision string    `json:"decision"`
	Action   string    `json:"action"`
	Reason   string    `json:"reason,omitempty"`
	// Segments are the parsed commands and the rule each matched.
	Segments   []Segment   `json:"segments,omitempty"`
	Assessment *Assessment `json:"assessment,omitempty"`
	Prompts    []Prompt    `json:"prompts,omitempty"`
	// Sandboxed says how the final run happened.
	Sandboxed bool     `json:"sandboxed"`
	Grants    []string `json:"grants,omitempty"`
	Denials   []string `json:"denials,omitempty"`
	Exit      *int     `json:"exit,omitempty"`
	Duration  float64  `json:"duration_ms"`
}

// Segment is one parsed command in a record.
type Segment struct {
	Argv     []string `json:"argv"`
	Rule     string   `json:"rule,omitempty"`
	Decision string   `json:"decision"`
	Reason   string   `json:"reason,omitempty"`
}

// Assessment is the risk assessment shown, and how getting it went.
type Assessment struct {
	Description string   `json:"description,omitempty"`
	RiskLevel   string   `json:"risk_level,omitempty"`
	Categories  []string `json:"risk_categories,omitempty"`
	Source      string   `json:"source,omitempty"`
	Status      string   `json:"status"`
	LatencyMS   float64  `json:"latency_ms"`
}

// Prompt is one question asked (or refused without asking) and its answer.
type Prompt struct {
	Kind    string   `json:"kind"`
	Reason  string   `json:"reason"`
	Offered []string `json:"offered,omitempty"`
	Answer  string   `json:"answer"`
}

// Log appends to one audit file.
type Log struct{ path string }

// Open returns the log in dir, creating the directory (0700) if needed.
func Open(dir string) (*Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return &Log{path: filepath.Join(dir, FileName)}, nil
}

// Path is the file the log writes.
func (l *Log) Path() string { return l.path }

// maxRecord bounds one record; longer argv and reasons are cut so a
// record always fits one write.
const maxRecord = 256 << 10

// Append writes one record.
func (l *Log) Append(r *Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if len(b) > maxRecord {
		short := *r
		short.Segments, short.Reason = nil, "(record too long; segments dropped)"
		if b, err = json.Marshal(&short); err != nil || len(b) > maxRecord {
			return errors.New("audit: record too long")
		}
	}
	b = append(b, '\n')
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		return fmt.Errorf("audit: lock: %w", err)
	}
	defer unix.Flock(int(f.Fd()), unix.LOCK_UN)
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// Read calls fn for every complete record in the log, in order. With
// follow, it then waits for new records until ctx ends.
func (l *Log) Read(ctx context.Context, follow bool, fn func(raw []byte, r *Record) error) error {
	f, err := os.Open(l.path)
	if errors.Is(err, os.ErrNotExist) && follow {
		// Wait for the first record.
		for errors.Is(err, os.ErrNotExist) {
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(200 * time.Millisecond):
			}
			f, err = os.Open(l.path)
		}
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 64<<10)
	var partial []byte
	for {
		line, err := rd.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			full := append(partial, line...)
			partial = nil
			var r Record
			if jerr := json.Unmarshal(bytes.TrimSpace(full), &r); jerr != nil {
				return fmt.Errorf("audit: %s: a record is not JSON (%v); the log is damaged", l.path, jerr)
			}
			if ferr := fn(bytes.TrimSpace(full), &r); ferr != nil {
				return ferr
			}
			continue
		}
		partial = append(partial, line...)
		if err == io.EOF {
			if !follow {
				return nil
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(200 * time.Millisecond):
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("audit: %w", err)
		}
	}
}
