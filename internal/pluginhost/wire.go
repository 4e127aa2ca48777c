package pluginhost

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// The host talks to its broker (the helper process that runs go-plugin and
// gRPC, so the airlock binary itself links neither) in JSON lines over the
// broker's standard input and output. The first line carries BrokerOptions;
// each later line is a Request, answered by a Response with the same ID.

// BrokerOptions configure the broker, and through it every plugin.
type BrokerOptions struct {
	StartTimeout time.Duration `json:"start_timeout"`
	CallTimeout  time.Duration `json:"call_timeout"`
	SocketDir    string        `json:"socket_dir"`
	Env          []string      `json:"env"`
	UID          int           `json:"uid"`
	// StateDir and LogLevel say where and how much the broker logs.
	StateDir string `json:"state_dir"`
	LogLevel string `json:"log_level"`
}

// Methods a Request may name.
const (
	MethodStartSandbox  = "sandbox.start"
	MethodStartAssessor = "assessor.start"
	MethodInfo          = "sandbox.info"
	MethodProbe         = "sandbox.probe"
	MethodPrepare       = "sandbox.prepare"
	MethodExplain       = "sandbox.explain"
	MethodAssessorInfo  = "assessor.info"
	MethodAssess        = "assessor.assess"
)

// Request asks the broker to call one plugin.
type Request struct {
	ID     uint64          `json:"id"`
	Entry  Entry           `json:"entry"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// TimeoutMS is what is left of the caller's deadline, if it has one.
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
}

// Response answers a Request.
type Response struct {
	ID     uint64          `json:"id"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *WireError      `json:"error,omitempty"`
}

// WireError carries an error and the sentinels it matched, so errors.Is
// works on the host side as it did in the broker.
type WireError struct {
	Message   string   `json:"message"`
	Sentinels []string `json:"sentinels,omitempty"`
}

// sentinels are the errors callers test for, by wire name.
var sentinels = []struct {
	name string
	err  error
}{
	{"plugin_exited", sandbox.ErrPluginExited},
	{"invalid_request", sandbox.ErrInvalidRequest},
	{"invalid_response", sandbox.ErrInvalidResponse},
	{"invalid_response", assessor.ErrInvalidResponse},
	{"unavailable", sandbox.ErrUnavailable},
	{"unsupported", errors.ErrUnsupported},
	{"deadline", context.DeadlineExceeded},
	{"canceled", context.Canceled},
	{"start", ErrStart},
	{"not_found", ErrNotFound},
}

// EncodeError turns err into its wire form.
func EncodeError(err error) *WireError {
	if err == nil {
		return nil
	}
	w := &WireError{Message: err.Error()}
	seen := map[string]bool{}
	for _, s := range sentinels {
		if errors.Is(err, s.err) && !seen[s.name] {
			seen[s.name] = true
			w.Sentinels = append(w.Sentinels, s.name)
		}
	}
	return w
}

// Err turns the wire form back into an error.
func (w *WireError) Err() error {
	if w == nil {
		return nil
	}
	return &remoteError{msg: w.Message, names: w.Sentinels}
}

type remoteError struct {
	msg   string
	names []string
}

func (e *remoteError) Error() string { return e.msg }

func (e *remoteError) Is(target error) bool {
	for _, n := range e.names {
		for _, s := range sentinels {
			if s.name == n && s.err == target {
				return true
			}
		}
	}
	return false
}
