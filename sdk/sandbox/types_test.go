package sandbox

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMode(t *testing.T) {
	for _, m := range []Mode{ModeReadOnly, ModeWorkspaceWrite, ModeDangerFullAccess} {
		got, err := ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v; want %v", m.String(), got, err, m)
		}
	}
	if _, err := ParseMode("workspace"); err == nil {
		t.Error("ParseMode accepted an unknown mode")
	}
}

func TestPrepareRequest_Validate(t *testing.T) {
	ok := func() PrepareRequest {
		return PrepareRequest{Command: Command{Argv: []string{"ls"}, Cwd: "/w"},
			Policy: Policy{Mode: ModeWorkspaceWrite, Network: NetworkOff, WritableRoots: []string{"/w"}, ProtectedNames: []string{".git"}}}
	}
	tests := []struct {
		name   string
		mutate func(*PrepareRequest)
		ok     bool
	}{
		{"valid", func(*PrepareRequest) {}, true},
		{"empty argv", func(r *PrepareRequest) { r.Command.Argv = nil }, false},
		{"relative cwd", func(r *PrepareRequest) { r.Command.Cwd = "w" }, false},
		{"full access", func(r *PrepareRequest) { r.Policy.Mode = ModeDangerFullAccess }, false},
		{"no network policy", func(r *PrepareRequest) { r.Policy.Network = NetworkUnspecified }, false},
		{"unclean root", func(r *PrepareRequest) { r.Policy.WritableRoots = []string{"/w/../etc"} }, false},
		{"relative deny", func(r *PrepareRequest) { r.Policy.DenyRead = []string{"secret"} }, false},
		{"protected path", func(r *PrepareRequest) { r.Policy.ProtectedNames = []string{"a/b"} }, false},
		{"protected dotdot", func(r *PrepareRequest) { r.Policy.ProtectedNames = []string{".."} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ok()
			tt.mutate(&r)
			err := r.Validate()
			if (err == nil) != tt.ok {
				t.Fatalf("Validate() = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrInvalidRequest) {
				t.Errorf("Validate() = %v, want it to wrap ErrInvalidRequest", err)
			}
		})
	}
}

func TestLaunchSpec_Validate(t *testing.T) {
	tests := []struct {
		name string
		spec *LaunchSpec
		ok   bool
	}{
		{"valid", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "/", Env: []string{"A=b"}, ExtraFiles: []ExtraFile{ExtraFileReportPipe}}, true},
		{"nil", nil, false},
		{"relative program", &LaunchSpec{Argv: []string{"true"}, Cwd: "/"}, false},
		{"relative cwd", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "."}, false},
		{"bad env", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "/", Env: []string{"=x"}}, false},
		{"unknown extra file", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "/", ExtraFiles: []ExtraFile{7}}, false},
		{"namespaces", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "/", Namespaces: &Namespaces{Kinds: []string{"user", "pid", "net"}, AmbientCaps: []string{"CAP_SYS_ADMIN"}}}, true},
		{"namespaces without user", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "/", Namespaces: &Namespaces{Kinds: []string{"pid"}}}, false},
		{"unknown namespace", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "/", Namespaces: &Namespaces{Kinds: []string{"user", "time"}}}, false},
		{"capability outside the list", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "/", Namespaces: &Namespaces{Kinds: []string{"user"}, AmbientCaps: []string{"CAP_SYS_MODULE"}}}, false},
		{"capabilities without namespaces", &LaunchSpec{Argv: []string{"/bin/true"}, Cwd: "/", Namespaces: &Namespaces{AmbientCaps: []string{"CAP_SYS_ADMIN"}}}, false},
	}
	for _, tt := range tests {
		err := tt.spec.Validate()
		if (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", tt.name, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidResponse) {
			t.Errorf("%s: Validate() = %v, want ErrInvalidResponse", tt.name, err)
		}
	}
}

func TestLaunchSpec_Instantiate(t *testing.T) {
	tmpl := LaunchSpec{Argv: []string{"/p", "launch", "{}", "old", "args"}, Cwd: "/w", Env: []string{"A=1"},
		ExtraFiles: []ExtraFile{ExtraFileReportPipe}, Template: true, CommandIndex: 3, EnvOverrides: []string{"TMPDIR=/tmp"},
		Namespaces: &Namespaces{Kinds: []string{"user", "mount"}, AmbientCaps: []string{"CAP_SYS_ADMIN"}}}
	if err := tmpl.Validate(); err != nil {
		t.Fatal(err)
	}
	got, err := tmpl.Instantiate(Command{Argv: []string{"ls", "-l"}, Env: []string{"TMPDIR=/x", "B=2"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Argv, " ") != "/p launch {} ls -l" || strings.Join(got.Env, " ") != "B=2 TMPDIR=/tmp" {
		t.Errorf("Instantiate = argv %v env %v", got.Argv, got.Env)
	}
	tmpl.Argv[0] = "/changed"
	if got.Argv[0] != "/p" {
		t.Error("Instantiate shares the template's argv")
	}
	tmpl.Namespaces.Kinds[1] = "net"
	if got.Namespaces == nil || strings.Join(got.Namespaces.Kinds, ",") != "user,mount" {
		t.Errorf("Instantiate namespaces = %+v, want its own copy of user,mount", got.Namespaces)
	}
	bad := tmpl
	bad.CommandIndex = 9
	if err := bad.Validate(); err == nil {
		t.Error("Validate accepted a command index outside argv")
	}
	if _, err := (&LaunchSpec{Argv: []string{"/p"}}).Instantiate(Command{Argv: []string{"ls"}}); err == nil {
		t.Error("Instantiate accepted a spec that is not a template")
	}
}
