package archtest

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/airlock-dev/airlock"

type pkg struct {
	ImportPath   string
	Name         string
	Doc          string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

func list(t *testing.T, goos string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	cmd.Env = append(cmd.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list (GOOS=%s): %v", goos, err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func rel(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

func own(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }

// allowed reports whether package from may import to (both module paths
// relative to the module root), and why not.
func allowed(from, to string, test bool) (bool, string) {
	switch {
	case strings.HasPrefix(from, "sdk"):
		if !strings.HasPrefix(to, "sdk") {
			return false, "sdk/ is the public contract and imports nothing else from this module"
		}
	case strings.HasPrefix(from, "plugins/"), strings.HasPrefix(from, "examples/"):
		parts := strings.SplitN(from, "/", 3)
		self := parts[0] + "/" + parts[1]
		if strings.HasPrefix(to, "sdk/") && !strings.HasPrefix(to, "sdk/internal") || to == self || strings.HasPrefix(to, self+"/") {
			return true, ""
		}
		if test && to == "internal/plugintest" {
			return true, ""
		}
		return false, "plugins and examples import only sdk/ and their own packages, as a third party would"
	case from == "cmd/host":
		if to != "internal/cli" {
			return false, "cmd/host is wiring only: it imports internal/cli and nothing else"
		}
	case from == "cmd/broker":
		if to != "internal/broker" {
			return false, "cmd/broker is wiring only: it imports internal/broker and nothing else"
		}
	}
	if to == "internal/broker" && from != "cmd/broker" {
		return false, "only cmd/broker imports internal/broker: the host reaches plugins through the broker process"
	}
	if to == "internal/cli" && from != "cmd/host" {
		return false, "only cmd/host imports internal/cli"
	}
	if strings.HasPrefix(to, "internal/plugintest") && !test && !strings.HasPrefix(from, "internal/plugintest") {
		return false, "internal/plugintest is for tests only"
	}
	return true, ""
}

func TestImports(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		for _, p := range list(t, goos) {
			from := rel(p.ImportPath)
			check := func(imports []string, test bool) {
				for _, imp := range imports {
					if !own(imp) {
						if from == "internal/policy" && (imp == "os" || imp == "net" || imp == "io/fs" || imp == "os/exec") {
							t.Errorf("GOOS=%s: internal/policy imports %s; it must stay pure", goos, imp)
						}
						continue
					}
					if ok, why := allowed(from, rel(imp), test); !ok {
						t.Errorf("GOOS=%s: %s imports %s: %s", goos, from, rel(imp), why)
					}
				}
			}
			check(p.Imports, false)
			check(append(p.TestImports, p.XTestImports...), true)
		}
	}
}

// TestHostLinksNoRPC keeps gRPC, protobuf and go-plugin out of the airlock
// binary and the Linux sandbox's lean launcher: their package
// initialisation alone costs milliseconds on every start, and the shell
// integration starts airlock for every line typed, the sandbox a launcher
// for every command. They belong in airlock-broker and the plugins.
func TestHostLinksNoRPC(t *testing.T) {
	for _, target := range []struct{ goos, pkg string }{
		{"linux", "./cmd/host"}, {"darwin", "./cmd/host"}, {"linux", "./plugins/sandbox-linux/launcher"},
	} {
		goos := target.goos
		cmd := exec.Command("go", "list", "-deps", target.pkg)
		cmd.Dir = "../.."
		cmd.Env = append(cmd.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps: %v", err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, banned := range []string{"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/hashicorp/go-plugin", "github.com/hashicorp/go-hclog"} {
				if dep == banned || strings.HasPrefix(dep, banned+"/") {
					t.Errorf("GOOS=%s: %s links %s", goos, target.pkg, dep)
				}
			}
		}
	}
}

func TestPackageDocs(t *testing.T) {
	for _, p := range list(t, "linux") {
		if strings.HasPrefix(rel(p.ImportPath), "sdk/internal/pb/") {
			continue // generated
		}
		if strings.TrimSpace(p.Doc) == "" {
			t.Errorf("package %s has no doc comment", rel(p.ImportPath))
		}
	}
}

func TestAllowed_rules(t *testing.T) {
	tests := []struct {
		from, to string
		test, ok bool
	}{
		{"sdk/sandbox", "sdk/internal/rpcerr", false, true},
		{"sdk/sandbox", "internal/xdg", false, false},
		{"plugins/sandbox-linux/internal/linuxbox", "sdk/sandbox", false, true},
		{"plugins/sandbox-linux/internal/linuxbox", "sdk/internal/serve", false, false},
		{"plugins/sandbox-linux/internal/linuxbox", "internal/config", false, false},
		{"plugins/sandbox-linux/internal/linuxbox", "internal/plugintest", true, true},
		{"plugins/assessor", "plugins/sandbox-linux/internal/linuxbox", false, false},
		{"cmd/host", "internal/cli", false, true},
		{"cmd/host", "internal/config", false, false},
		{"internal/pluginhost", "internal/cli", false, false},
		{"internal/cli", "internal/plugintest", false, false},
		{"internal/cli", "internal/broker", false, false},
		{"cmd/broker", "internal/broker", false, true},
	}
	for _, tt := range tests {
		if ok, _ := allowed(tt.from, tt.to, tt.test); ok != tt.ok {
			t.Errorf("allowed(%s -> %s, test=%v) = %v, want %v", tt.from, tt.to, tt.test, ok, tt.ok)
		}
	}
}
