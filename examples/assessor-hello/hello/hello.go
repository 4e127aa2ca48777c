// Package hello is a deliberately small risk assessor: anything that
// mentions rm is high risk, everything else low. It shows the shape of a
// plugin, not a useful policy.
package hello

import (
	"context"
	"fmt"
	"strings"

	"github.com/airlock-dev/airlock/sdk/assessor"
)

// Assessor implements [assessor.Assessor].
type Assessor struct{}

// Info names the plugin.
func (Assessor) Info(context.Context, *assessor.InfoRequest) (*assessor.Info, error) {
	return &assessor.Info{Name: "hello", Version: "1.0.0", Description: "example assessor"}, nil
}

// Assess rates a command line.
func (Assessor) Assess(ctx context.Context, req *assessor.Request) (*assessor.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.CommandLine) == "" {
		return nil, fmt.Errorf("%w: empty command line", assessor.ErrInvalidRequest)
	}
	for _, word := range strings.Fields(req.CommandLine) {
		if word == "rm" {
			return &assessor.Verdict{
				Description: "Deletes files.",
				Level:       assessor.High,
				Categories:  []assessor.Category{assessor.DataDeletion},
				Source:      "hello",
			}, nil
		}
	}
	return &assessor.Verdict{Description: "Runs a command the example does not worry about.", Level: assessor.Low, Source: "hello"}, nil
}
