// Package archtest turns the project's layering and documentation rules
// into failing tests: sdk/ stands alone, plugins and examples use only
// sdk/, only cmd/host reaches internal/cli, and every package says what it
// is for. It has no code outside its tests.
package archtest
