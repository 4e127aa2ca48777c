// Package errs holds the sentinel errors shared by every plugin kind. It
// imports nothing, so the SDK's type packages stay free of gRPC; the kind
// packages re-export these, and rpcerr maps them to and from the wire.
package errs

import "errors"

var (
	// ErrPluginExited reports that the plugin process went away mid-call.
	ErrPluginExited = errors.New("plugin exited")
	// ErrInvalidRequest reports a request the plugin will not serve as asked.
	ErrInvalidRequest = errors.New("invalid request")
	// ErrInvalidResponse reports an answer that breaks the contract.
	ErrInvalidResponse = errors.New("invalid plugin response")
	// ErrUnavailable reports that the plugin cannot work on this machine.
	ErrUnavailable = errors.New("sandbox unavailable")
)
