package shellparse

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSegments(t *testing.T) {
	tests := []struct {
		line string
		want []string // each segment: argv joined, then " |" flags
	}{
		{"ls && rm -rf ~", []string{"ls", "rm -rf /home/u"}},
		{"sudo -u root rm -rf /x", []string{"rm -rf /x |priv wr=sudo"}},
		{"rm${IFS}-rf${IFS}/", []string{"rm -rf /"}},
		{"'r'm -rf x; \\rm y; \"rm\" z", []string{"rm -rf x", "rm y", "rm z"}},
		{"/bin/rm -f x", []string{"/bin/rm -f x"}},
		{"echo 'rm -rf /'", []string{"echo 'rm -rf /'"}},
		{"echo $(rm -rf x)", []string{"rm -rf x |ctx=substitution", "echo '$(rm -rf x)' |dyn"}},
		{"echo `id`", []string{"id |ctx=substitution", "echo '$(id)' |dyn"}},
		{"diff <(sort a) b", []string{"sort a |ctx=process-substitution", "diff '<(sort a)' b |dyn"}},
		{"bash -lc 'ls | wc -l'", []string{"ls |wr=bash -c", "wc -l |pipe wr=bash -c"}},
		{"sh -c \"bash -c 'rm -rf x'\"", []string{"rm -rf x |wr=sh -c,bash -c"}},
		{"env A=1 nice -n 5 timeout -s 9 5 nohup rm x", []string{"rm x |wr=env,nice,timeout,nohup"}},
		{"env -S 'rm -rf x'", []string{"rm -rf x |wr=env"}},
		{"command -v rm", []string{"command -v rm"}},
		{"command rm x", []string{"rm x |wr=command"}},
		{"exec -a foo rm x", []string{"rm x |wr=exec"}},
		{"time -p rm x", []string{"rm x |wr=time"}},
		{"find . -name '*.o' -exec rm -f {} + -print", []string{"find . -name '*.o' -exec -print", "rm -f '{}' |ctx=find-exec wr=find -exec"}},
		{"ls | xargs -n1 rm", []string{"ls", "xargs -n1 |pipe", "rm |pipe ctx=xargs wr=xargs args"}},
		{"curl -s x | sh", []string{"curl -s x", "sh |pipe opaque"}},
		{"base64 -d <<< cm0gLXJmIH4= | bash", []string{"base64 -d |red=<<<cm0gLXJmIH4=", "bash |pipe opaque"}},
		{"bash <<'EOF'\nrm -rf /\nEOF", []string{"rm -rf / |wr=bash"}},
		{"eval \"$CMD\"", []string{"eval '\"$CMD\"' |dyn opaque"}},
		{"eval 'rm -rf x'", []string{"rm -rf x |wr=eval"}},
		{"cmd=rm; $cmd -rf x", []string{"'$cmd' -rf x |dyn opaque"}},
		{"trap 'rm -rf x' EXIT", []string{"trap", "rm -rf x |ctx=trap"}},
		{"f() { rm -rf x; }; f", []string{"rm -rf x |ctx=function", "f"}},
		{"if then", []string{"'if then' |dyn opaque"}},
		{"ls > out.txt 2>&1", []string{"ls |red=>out.txt,>&1"}},
		{"su -c 'rm -rf /x'", []string{"rm -rf /x |priv wr=su -c"}},
		{"sudo -i", []string{"sudo -i |priv"}},
		{"watch -n 1 'rm x'", []string{"rm x |wr=watch"}},
		{"x=$(rm y)", []string{"rm y |ctx=substitution"}},
		{"export A=$(id)", []string{"id |ctx=substitution", "export 'A=$(id)' |dyn"}},
		{"env -S 'PATH=/usr/bin git reset --hard'", []string{"git reset --hard |wr=env"}},
		{"sudo SYSTEMD_EDITOR=x systemctl edit u", []string{"systemctl edit u |priv wr=sudo"}},
		{"parallel rm -rf {} ::: / ~", []string{"parallel", "rm -rf '{}' / /home/u |wr=parallel"}},
		{"parallel ::: 'rm x' 'ls'", []string{"parallel", "rm x |wr=parallel", "ls |wr=parallel"}},
	}
	for _, tt := range tests {
		l := Parse(tt.line, Options{Home: "/home/u"})
		var got []string
		for _, s := range l.Segments {
			got = append(got, describe(s))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Parse(%q):\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
}

func describe(s Segment) string {
	var flags []string
	if s.Privileged {
		flags = append(flags, "priv")
	}
	if s.InputFromPipe {
		flags = append(flags, "pipe")
	}
	if s.Context != Top {
		flags = append(flags, "ctx="+string(s.Context))
	}
	if len(s.Wrappers) > 0 {
		flags = append(flags, "wr="+strings.Join(s.Wrappers, ","))
	}
	if s.ArgsFromInput {
		flags = append(flags, "args")
	}
	if s.Dynamic {
		flags = append(flags, "dyn")
	}
	if s.Opaque != "" {
		flags = append(flags, "opaque")
	}
	if len(s.Redirects) > 0 {
		var rs []string
		for _, r := range s.Redirects {
			rs = append(rs, r.Op+r.Target)
		}
		flags = append(flags, "red="+strings.Join(rs, ","))
	}
	out := Join(s.Argv)
	if len(flags) > 0 {
		out += " |" + strings.Join(flags, " ")
	}
	return out
}

func TestParseArgv(t *testing.T) {
	l := ParseArgv([]string{"sh", "-c", "echo x > ~/outside && sudo rm -rf /"}, Options{Home: "/h"})
	var got []string
	for _, s := range l.Segments {
		got = append(got, describe(s))
	}
	want := []string{"echo x |wr=sh -c red=>/h/outside", "rm -rf / |priv wr=sh -c,sudo"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestDepthCap(t *testing.T) {
	line := "rm x"
	for range MaxDepth + 2 {
		line = "sh -c " + Quote(line)
	}
	l := Parse(line, Options{})
	if len(l.Opaque()) == 0 {
		t.Fatalf("nesting beyond MaxDepth should be opaque: %+v", l.Segments)
	}
}

// FuzzJoin checks that quoting round-trips: what Join prints parses back
// into the same words.
func FuzzJoin(f *testing.F) {
	for _, s := range []string{"a b", "it's", "$(x)", "\\", "\n", "'\"", "~", "*", "a\tb", "é", "!x", "\x01"} {
		f.Add(s, "x")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.ContainsRune(a+b, 0) {
			return
		}
		argv := []string{"cmd", a, b}
		l := ParseArgv(argv, Options{})
		line := Parse(l.Source, Options{})
		if len(line.Segments) != 1 || !slices.Equal(line.Segments[0].Argv, argv) {
			t.Fatalf("Join(%q) = %q parses as %+v", argv, l.Source, line.Segments)
		}
	})
}

// FuzzParse checks that no input panics and that every segment has a
// name.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"ls", "a && b || c; d | e", "$(x) `y` <(z)", "sudo env A=1 sh -c 'eval \"$X\"'", "find . -exec {} +", "xargs", "f() { f | f & }; f", "cat <<E\n$(id)\nE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		l := Parse(src, Options{Home: "/h"})
		for _, s := range l.Segments {
			if len(s.Argv) == 0 {
				t.Fatalf("empty segment in %q", src)
			}
			Classify(s)
		}
	})
}

func TestIncomplete(t *testing.T) {
	for src, want := range map[string]bool{
		"ls": false, "echo 'a": true, "cat <<EOF": true, "cat <<EOF\nhi": true, "cat <<EOF\nhi\nEOF": false,
		"ls &&": true, "ls |": true, "if true; then": true, "echo \\": true, "echo \\\\": false, "if then": false, "(ls": true,
	} {
		if got := Incomplete(src); got != want {
			t.Errorf("Incomplete(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestAliasesAndFunctions(t *testing.T) {
	o := Options{
		Aliases:   map[string]string{"ll": "ls -la", "ls": "ls --color", "nuke": "sudo rm -rf"},
		Functions: map[string]string{"g": "rm -rf \"$1\"; echo done", "loop": "loop"},
	}
	var got []string
	for _, s := range Parse("ll /tmp && g x; nuke /; loop", o).Segments {
		got = append(got, describe(s))
	}
	want := []string{
		"ls --color -la /tmp |wr=alias ll,alias ls",
		"g x",
		"rm -rf '\"$1\"' |ctx=function wr=function g dyn",
		"echo 'done' |ctx=function wr=function g",
		"rm -rf / |priv wr=alias nuke,sudo",
		"loop",
		"loop |ctx=function wr=function loop",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
