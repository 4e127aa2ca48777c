package launcher

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestComplement(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"home/u/.ssh", "home/u/src", "home/v", "usr/bin"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"home/u/.netrc", "home/u/notes", "etc"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := func(p string) string { return filepath.Join(root, p) }
	got := complement([]string{root}, []string{j("home/u/.ssh"), j("home/u/.netrc")})
	want := coverage{
		Dirs:  []string{j("home/u/src"), j("home/v"), j("usr")},
		Files: []string{j("etc"), j("home/u/notes")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("complement =\n%+v\nwant\n%+v", got, want)
	}
	if got := complement([]string{root}, nil); !reflect.DeepEqual(got.Dirs, []string{root}) {
		t.Errorf("complement with nothing denied = %+v, want the root itself", got)
	}
}

func FuzzDecodeConfig(f *testing.F) {
	f.Add(`{"argv":["true"],"cwd":"/","mode":"read-only","report_fd":-1}`)
	f.Add(`{}`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeConfig(s)
		if err == nil && len(c.Argv) == 0 {
			t.Fatalf("decodeConfig(%q) accepted an empty command", s)
		}
	})
}

func FuzzParseReport(f *testing.F) {
	f.Add([]byte(`{"event":"exit","code":3}` + "\n"))
	f.Add([]byte("\n\n{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, ev := range ParseReport(b) {
			if ev.Event == "" {
				t.Fatalf("ParseReport kept an event without a name")
			}
		}
	})
}
