package seatbelt

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/sdk/sandbox"
	"github.com/airlock-dev/airlock/sdk/sandboxtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestProfile_golden(t *testing.T) {
	tests := []struct {
		name string
		pol  sandbox.Policy
	}{
		{"workspace-write", sandbox.Policy{Mode: sandbox.ModeWorkspaceWrite, WritableRoots: []string{"/Users/u/proj"},
			ProtectedNames: []string{".git", ".airlock"}, DenyRead: []string{"/Users/u/.ssh"}, Network: sandbox.NetworkOff}},
		{"read-only-network", sandbox.Policy{Mode: sandbox.ModeReadOnly, Network: sandbox.NetworkOn}},
		{"hostile-path", sandbox.Policy{Mode: sandbox.ModeWorkspaceWrite, WritableRoots: []string{`/tmp/x") (allow default) ("`}, Network: sandbox.NetworkOff}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prof, params := Profile(tt.pol, "/private/tmp/airlock-1")
			got := prof + "---\n" + strings.Join(params, "\n") + "\n"
			if strings.Contains(prof, "allow default") {
				t.Fatalf("a path changed the profile's meaning:\n%s", prof)
			}
			path := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if got != string(want) {
				t.Errorf("Profile mismatch for %s:\ngot:\n%s\nwant:\n%s", tt.name, got, want)
			}
		})
	}
}

func TestBackend_conformance(t *testing.T) {
	sandboxtest.Run(t, func(testing.TB) sandbox.Sandbox { return New() }, sandboxtest.Options{})
}
