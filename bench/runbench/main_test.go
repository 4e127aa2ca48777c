package main

import (
	"reflect"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"/bin/true", []string{"/bin/true"}, true},
		{"  a  b\tc ", []string{"a", "b", "c"}, true},
		{"bash -lc 'git status && ls | wc -l'", []string{"bash", "-lc", "git status && ls | wc -l"}, true},
		{"echo ''", []string{"echo", ""}, true},
		{"a'b c'd", []string{"ab cd"}, true},
		{"echo 'open", nil, false},
		{"   ", nil, false},
	} {
		got, err := splitArgs(tc.in)
		if (err == nil) != tc.ok || (tc.ok && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("splitArgs(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func FuzzSplitArgs(f *testing.F) {
	f.Add("bash -lc 'a b'")
	f.Fuzz(func(t *testing.T, s string) {
		args, err := splitArgs(s)
		if err == nil && len(args) == 0 {
			t.Fatalf("splitArgs(%q) returned no arguments and no error", s)
		}
	})
}
