// Package assessor is the contract for airlock risk assessors.
//
// An assessor implements [Assessor] and calls [Serve] from its main
// function. The host calls Assess when a command needs approval or was
// blocked by the sandbox, with a deadline; an assessor that fails, times out
// or answers outside this contract is replaced by airlock's built-in rules
// for that call, and the failure is recorded. A risky command is a [Verdict],
// not an error: errors mean the machinery broke.
//
// Test an assessor with the conformance kit in
// github.com/airlock-dev/airlock/sdk/assessortest.
package assessor
