package assessor

import "context"

// Assessor is implemented by risk assessors. Assess may be called
// concurrently; it must honour ctx's deadline and return promptly when ctx
// is done.
type Assessor interface {
	// Info names the assessor. It must be cheap.
	Info(ctx context.Context, req *InfoRequest) (*Info, error)
	// Assess rates one command.
	Assess(ctx context.Context, req *Request) (*Verdict, error)
}
