package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// kind is the type of a config value.
type kind int

const (
	kString kind = iota
	kBool
	kList
	kDuration
)

// field describes one key: its type, its check, and whether a project file
// may set it. Security-relevant keys (which binaries run, how weak the
// sandbox may get) are only taken from system and user files, the
// environment and flags.
type field struct {
	kind      kind
	check     func(any) error
	noProject bool
	doc       string
}

func oneOf(vals ...string) func(any) error {
	return func(v any) error {
		s, _ := v.(string)
		for _, x := range vals {
			if s == x {
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s", s, strings.Join(vals, ", "))
	}
}

func eachOneOf(vals ...string) func(any) error {
	one := oneOf(vals...)
	return func(v any) error {
		list, _ := v.([]string)
		for _, x := range list {
			if err := one(x); err != nil {
				return err
			}
		}
		return nil
	}
}

// validName accepts plugin names: 1 to 64 of [a-z0-9_-], starting with a
// letter or digit. (Counted regexp repetitions are costly to compile at
// start-up.)
func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 || s[0] == '_' || s[0] == '-' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func name(v any) error {
	if s, _ := v.(string); !validName(s) {
		return fmt.Errorf("%q is not a plugin name (lowercase letters, digits, - and _)", s)
	}
	return nil
}

func absPath(v any) error {
	if s, _ := v.(string); !filepath.IsAbs(s) {
		return fmt.Errorf("%q is not an absolute path", s)
	}
	return nil
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func sha256Hex(v any) error {
	if s, _ := v.(string); !isSHA256Hex(s) {
		return fmt.Errorf("%q is not a SHA-256 in lowercase hex (64 characters)", s)
	}
	return nil
}

func positiveDuration(v any) error {
	if d, _ := v.(time.Duration); d <= 0 || d > 10*time.Minute {
		return fmt.Errorf("%v is not a duration between 0 and 10m", v)
	}
	return nil
}

// schema lists every fixed key. Keys under plugins.NAME are checked by
// pluginField.
var schema = map[string]field{
	"sandbox.mode":               {kind: kString, check: oneOf("read-only", "workspace-write", "danger-full-access"), doc: "sandbox mode"},
	"sandbox.network":            {kind: kString, check: oneOf("off", "on"), doc: "network policy"},
	"sandbox.backend":            {kind: kString, check: name, noProject: true, doc: "sandbox plugin name"},
	"sandbox.add_dirs":           {kind: kList, doc: "extra writable roots"},
	"sandbox.deny_read":          {kind: kList, doc: "paths hidden from reads"},
	"sandbox.protected_names":    {kind: kList, doc: "names kept read-only under writable roots"},
	"sandbox.allow_degraded":     {kind: kBool, noProject: true, doc: "accept the Landlock-only mode without user namespaces"},
	"approval.policy":            {kind: kString, check: oneOf("untrusted", "on-failure", "on-request", "never"), doc: "approval policy"},
	"approval.reject":            {kind: kList, check: eachOneOf("rule", "heuristic", "sandbox"), doc: "prompt kinds refused without asking (rule, heuristic, sandbox)"},
	"approval.timeout":           {kind: kDuration, check: positiveDuration, doc: "how long a prompt waits before it means no"},
	"approval.allow_unsandboxed": {kind: kBool, noProject: true, doc: "run a line outside the sandbox when a rule allows every command in it"},
	"shell.mode":                 {kind: kString, check: oneOf("on", "guard", "off"), doc: "default mode of the shell integration: on (sandbox typed lines), guard (ask before risky ones), off (only record)"},
	"rules.paths":                {kind: kList, noProject: true, doc: "extra rules files or directories, loaded after the user's"},
	"assessor.backend":           {kind: kString, check: name, noProject: true, doc: "assessor plugin name"},
	"assessor.model.base_url":    {kind: kString, noProject: true, doc: "OpenAI-compatible API root for the model-backed assessor (empty: rules only)"},
	"assessor.model.name":        {kind: kString, noProject: true, doc: "model name for the model-backed assessor"},
	"assessor.model.api_key_env": {kind: kString, noProject: true, doc: "environment variable holding the API key"},
	"assessor.model.api":         {kind: kString, check: oneOf("chat", "responses"), noProject: true, doc: "chat (Chat Completions) or responses (Responses API)"},
	"assessor.model.stream":      {kind: kBool, noProject: true, doc: "stream the model's answer"},
	"assessor.timeout":           {kind: kDuration, check: positiveDuration, doc: "deadline for one assessment"},
	"plugin.start_timeout":       {kind: kDuration, check: positiveDuration, noProject: true, doc: "deadline for a plugin to start"},
	"plugin.call_timeout":        {kind: kDuration, check: positiveDuration, noProject: true, doc: "deadline for one sandbox call"},
	"plugin.reuse_launch_specs":  {kind: kBool, noProject: true, doc: "reuse a backend's launch-spec templates instead of starting it for every command"},
	"log.level":                  {kind: kString, check: oneOf("trace", "debug", "info", "warn", "error"), doc: "host log level"},
	"trusted_projects":           {kind: kList, noProject: true, doc: "project roots whose .airlock/ config and rules load"},
}

var pluginKeys = map[string]field{
	"kind":   {kind: kString, check: oneOf("sandbox", "assessor"), noProject: true},
	"path":   {kind: kString, check: absPath, noProject: true},
	"sha256": {kind: kString, check: sha256Hex, noProject: true},
}

// lookupField finds the schema entry for a flattened key.
func lookupField(key string) (field, bool) {
	if f, ok := schema[key]; ok {
		return f, true
	}
	parts := strings.Split(key, ".")
	if len(parts) == 3 && parts[0] == "plugins" && validName(parts[1]) {
		f, ok := pluginKeys[parts[2]]
		return f, ok
	}
	return field{}, false
}

// defaults are the built-in values: the safe choice everywhere.
func defaults() map[string]any {
	return map[string]any{
		"sandbox.mode":               "workspace-write",
		"sandbox.network":            "off",
		"sandbox.backend":            defaultBackend,
		"sandbox.add_dirs":           []string{},
		"sandbox.deny_read":          []string{"~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gcloud", "~/.azure", "~/.kube", "~/.docker/config.json", "~/.netrc", "~/.password-store", "~/.npmrc", "~/.pypirc"},
		"sandbox.protected_names":    []string{".git", ".airlock"},
		"sandbox.allow_degraded":     false,
		"approval.policy":            "on-failure",
		"approval.reject":            []string{},
		"approval.timeout":           60 * time.Second,
		"approval.allow_unsandboxed": true,
		"rules.paths":                []string{},
		"shell.mode":                 "guard",
		"assessor.backend":           "assessor",
		"assessor.model.base_url":    "",
		"assessor.model.name":        "",
		"assessor.model.api_key_env": "OPENAI_API_KEY",
		"assessor.model.api":         "chat",
		"assessor.model.stream":      false,
		"assessor.timeout":           5 * time.Second,
		"plugin.start_timeout":       5 * time.Second,
		"plugin.call_timeout":        10 * time.Second,
		"plugin.reuse_launch_specs":  true,
		"log.level":                  "info",
		"trusted_projects":           []string{},
	}
}

// KeyDocs lists every fixed key with its description, sorted, plus the
// per-plugin keys.
func KeyDocs() [][2]string {
	out := make([][2]string, 0, len(schema)+3)
	for k, f := range schema {
		out = append(out, [2]string{k, f.doc})
	}
	out = append(out,
		[2]string{"plugins.NAME.kind", "sandbox or assessor"},
		[2]string{"plugins.NAME.path", "absolute path of the plugin binary"},
		[2]string{"plugins.NAME.sha256", "pinned SHA-256 of the binary (optional)"},
	)
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
