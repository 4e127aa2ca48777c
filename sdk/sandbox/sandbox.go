package sandbox

import "context"

// Sandbox is implemented by backends. The host calls Info and Probe once per
// process, then Prepare once per command and Explain after a command that
// failed. Calls may come concurrently from several goroutines; arguments are
// owned by the callee for the duration of the call only.
type Sandbox interface {
	// Info names the backend. It must be cheap.
	Info(ctx context.Context, req *InfoRequest) (*Info, error)
	// Probe reports what this machine supports.
	Probe(ctx context.Context, req *ProbeRequest) (*ProbeResult, error)
	// Prepare returns the launch spec for one command. A backend that cannot
	// enforce the policy returns an error wrapping ErrUnavailable or
	// errors.ErrUnsupported; it never returns a weaker spec.
	Prepare(ctx context.Context, req *PrepareRequest) (*PrepareResponse, error)
	// Explain turns a finished run into denials.
	Explain(ctx context.Context, req *ExplainRequest) (*ExplainResponse, error)
}
