// Package broker runs airlock's plugins on the host's behalf, in the
// airlock-broker process: it starts them with hashicorp/go-plugin, talks
// gRPC to them, puts a deadline on every start and call, validates their
// answers, and stops them all when the host closes its end of the pipe.
//
// Keeping go-plugin and gRPC in this helper keeps them out of the airlock
// binary, whose start time every typed shell line pays; the helper starts
// only when a plugin is needed.
package broker
