package rpcerr

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestRoundTrip(t *testing.T) {
	for _, sentinel := range []error{errors.ErrUnsupported, ErrInvalidRequest, ErrUnavailable, context.DeadlineExceeded, context.Canceled} {
		wrapped := fmt.Errorf("prepare: %w", sentinel)
		got := FromStatus(ToStatus(wrapped), nil)
		if !errors.Is(got, sentinel) {
			t.Errorf("round trip of %v gave %v, which does not match the sentinel", wrapped, got)
		}
	}
}

func TestFromStatus_transportFailure(t *testing.T) {
	err := status.Error(codes.Unavailable, "connection closed")
	if got := FromStatus(err, func() bool { return true }); !errors.Is(got, ErrPluginExited) {
		t.Errorf("FromStatus(Unavailable, exited) = %v, want ErrPluginExited", got)
	}
	if got := FromStatus(status.Error(codes.Internal, "boom"), func() bool { return false }); errors.Is(got, ErrPluginExited) {
		t.Errorf("FromStatus(Internal, alive) = %v, want not ErrPluginExited", got)
	}
	if ToStatus(nil) != nil || FromStatus(nil, nil) != nil {
		t.Error("nil errors must stay nil")
	}
}
