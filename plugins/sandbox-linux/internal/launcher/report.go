package launcher

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
)

// ReportEvent is one JSON line the launcher writes to the report pipe.
type ReportEvent struct {
	// Event is "setup_error", "mode", "exit", "stopped", "denied",
	// "note" or "done".
	Event  string `json:"event"`
	Detail string `json:"detail,omitempty"`
	Code   int    `json:"code,omitempty"`
	Signal int    `json:"signal,omitempty"`
	// Kind is what a denial refused: write, read, network or syscall.
	Kind string `json:"kind,omitempty"`
	// Op is the operation refused: open, create, mkdir, connect, mount, …
	Op      string `json:"op,omitempty"`
	Path    string `json:"path,omitempty"`
	Host    string `json:"host,omitempty"`
	Port    int    `json:"port,omitempty"`
	Syscall string `json:"syscall,omitempty"`
}

// reporter writes events to the report pipe; a nil reporter drops them.
type reporter struct{ f *os.File }

func newReporter(fd int) *reporter {
	if fd < 0 {
		return &reporter{}
	}
	return &reporter{f: os.NewFile(uintptr(fd), "report")}
}

func (r *reporter) emit(ev ReportEvent) {
	if r == nil || r.f == nil {
		return
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return
	}
	// One write per line keeps lines whole on a pipe (PIPE_BUF).
	_, _ = r.f.Write(append(b, '\n'))
}

// finish reports that the sandbox is over, with the command's status, and
// closes the pipe: "done" is the last event, written only after nothing of
// the sandbox is left running and protected names are checked, so the host
// may act on it without waiting for the launcher's own exit.
func (r *reporter) finish(code, signal int) {
	if r == nil || r.f == nil {
		return
	}
	r.emit(ReportEvent{Event: "done", Code: code, Signal: signal})
	r.f.Close()
	r.f = nil
}

// ParseReport reads the report pipe's JSON lines, skipping anything else.
func ParseReport(b []byte) []ReportEvent {
	var out []ReportEvent
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		var ev ReportEvent
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Event != "" {
			out = append(out, ev)
		}
	}
	return out
}
