// Package rpcerr maps between the SDK's sentinel errors and gRPC status codes,
// in both directions, so callers on either side of the wire use errors.Is.
package rpcerr

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/airlock-dev/airlock/sdk/internal/errs"
)

// The sentinel errors, named here for brevity.
var (
	ErrPluginExited    = errs.ErrPluginExited
	ErrInvalidRequest  = errs.ErrInvalidRequest
	ErrInvalidResponse = errs.ErrInvalidResponse
	ErrUnavailable     = errs.ErrUnavailable
)

// ToStatus converts an implementation's error into a gRPC status error on
// the server side.
func ToStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok && !isSentinel(err) {
		return err
	}
	code := codes.Unknown
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		code = codes.Unimplemented
	case errors.Is(err, ErrInvalidRequest):
		code = codes.InvalidArgument
	case errors.Is(err, ErrUnavailable):
		code = codes.FailedPrecondition
	case errors.Is(err, context.DeadlineExceeded):
		code = codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		code = codes.Canceled
	}
	return status.Error(code, err.Error())
}

func isSentinel(err error) bool {
	return errors.Is(err, errors.ErrUnsupported) || errors.Is(err, ErrInvalidRequest) ||
		errors.Is(err, ErrUnavailable)
}

// FromStatus converts a gRPC error seen by the client into an error that
// wraps the matching sentinel. exited reports whether the plugin process is
// known to be gone, which turns transport failures into ErrPluginExited.
func FromStatus(err error, exited func() bool) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	msg := st.Message()
	switch st.Code() {
	case codes.Unimplemented:
		return fmt.Errorf("%s: %w", msg, errors.ErrUnsupported)
	case codes.InvalidArgument:
		return fmt.Errorf("%w: %s", ErrInvalidRequest, msg)
	case codes.FailedPrecondition:
		return fmt.Errorf("%w: %s", ErrUnavailable, msg)
	case codes.DeadlineExceeded:
		return fmt.Errorf("%s: %w", msg, context.DeadlineExceeded)
	case codes.Canceled:
		return fmt.Errorf("%s: %w", msg, context.Canceled)
	case codes.Unavailable, codes.Internal:
		if exited != nil && exited() {
			return fmt.Errorf("%w: %s", ErrPluginExited, msg)
		}
		if st.Code() == codes.Unavailable {
			return fmt.Errorf("%w: %s", ErrPluginExited, msg)
		}
	}
	return fmt.Errorf("plugin error: %s", msg)
}
