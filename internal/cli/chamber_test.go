package cli

import (
	"testing"

	"github.com/airlock-dev/airlock/sdk/shellparse"
)

func TestAssessmentStatus(t *testing.T) {
	for source, want := range map[string]string{
		"rules":                                     "success",
		"model:gpt (status success, 1.2s)":          "success",
		"rules (model gpt: status timeout, 5s)":     "timeout",
		"rules (model gpt: status parse_error, 1s)": "parse_error",
	} {
		if got := assessmentStatus(source); got != want {
			t.Errorf("assessmentStatus(%q) = %q, want %q", source, got, want)
		}
	}
}

func TestPrefixOffer(t *testing.T) {
	for line, want := range map[string]string{
		"sh -c 'echo x > ~/outside'": "echo …",
		"git push origin main":       "git push …",
		"sudo apt install x":         "",
		"python3 -c 'print(1)'":      "",
		"rm -rf build":               "",
		"ls && git status":           "",
		"env A=1 make":               "make …",
	} {
		if got := prefixFor(shellparse.Parse(line, shellparse.Options{})); got != want {
			t.Errorf("prefixFor(%q) = %q, want %q", line, got, want)
		}
	}
}
