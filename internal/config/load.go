package config

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/v2"
	gotoml "github.com/pelletier/go-toml/v2"
)

// SystemFile is the machine-wide config file.
const SystemFile = "/etc/airlock/config.toml"

// EnvPrefix starts every environment variable that sets a config key, as
// in AIRLOCK_SANDBOX__MODE=read-only.
const EnvPrefix = "AIRLOCK_"

// ErrInvalid wraps every configuration error.
var ErrInvalid = errors.New("invalid configuration")

// Options say where to load from. Load never reads the process environment
// itself.
type Options struct {
	// Env is the environment as KEY → value.
	Env map[string]string
	// SystemFile and UserFile are paths; a missing file is skipped.
	SystemFile string
	UserFile   string
	// Home expands "~/" in path lists.
	Home string
	// Cwd decides which trusted project, if any, applies.
	Cwd string
	// Flags are the last layer, keyed like the schema ("sandbox.mode"),
	// with string, bool or []string values.
	Flags map[string]any
	// FlagNames maps a schema key to the flag that set it, for Origin.
	FlagNames map[string]string
}

// PluginEntry is one [plugins.NAME] table.
type PluginEntry struct {
	Kind   string
	Path   string
	SHA256 string
}

// Config is the resolved configuration.
type Config struct {
	Sandbox struct {
		Mode           string
		Network        string
		Backend        string
		AddDirs        []string
		DenyRead       []string
		ProtectedNames []string
		AllowDegraded  bool
	}
	Approval struct {
		Policy           string
		Reject           []string
		Timeout          time.Duration
		AllowUnsandboxed bool
	}
	Rules    struct{ Paths []string }
	Shell    struct{ Mode string }
	Assessor struct {
		Backend string
		Timeout time.Duration
		Model   struct {
			BaseURL, Name, APIKeyEnv, API string
			Stream                        bool
		}
	}
	Plugin struct {
		StartTimeout     time.Duration
		CallTimeout      time.Duration
		ReuseLaunchSpecs bool
	}
	LogLevel        string
	TrustedProjects []string
	Plugins         map[string]PluginEntry
	// ProjectRoot is the trusted project whose config applied, or "".
	ProjectRoot string
	// Origin maps each key to where its value came from.
	Origin map[string]string
	k      *koanf.Koanf
}

// Keys returns every set key in order, for printing.
func (c *Config) Keys() []string {
	keys := c.k.Keys()
	sort.Strings(keys)
	return keys
}

// Value returns a key's value formatted for display.
func (c *Config) Value(key string) string {
	v := c.k.Get(key)
	switch x := v.(type) {
	case []string:
		return "[" + quoteList(x) + "]"
	case []any:
		s := make([]string, len(x))
		for i := range x {
			s[i] = fmt.Sprint(x[i])
		}
		return "[" + quoteList(s) + "]"
	case string:
		return strconv.Quote(x)
	}
	return fmt.Sprint(v)
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i := range s {
		q[i] = strconv.Quote(s[i])
	}
	return strings.Join(q, ", ")
}

type loader struct {
	k      *koanf.Koanf
	origin map[string]string
}

// Load builds the configuration from all layers.
func Load(opts Options) (*Config, error) {
	l := &loader{k: koanf.New("."), origin: map[string]string{}}
	if err := l.merge(defaults(), func(string) string { return "default" }); err != nil {
		return nil, err
	}
	for _, f := range []string{opts.SystemFile, opts.UserFile} {
		if err := l.loadFile(f, false); err != nil {
			return nil, err
		}
	}
	projectRoot := trustedRoot(l.k.Strings("trusted_projects"), opts.Cwd, opts.Home)
	if projectRoot != "" {
		if err := l.loadFile(filepath.Join(projectRoot, ".airlock", "config.toml"), true); err != nil {
			return nil, err
		}
	}
	if err := l.loadEnv(opts.Env); err != nil {
		return nil, err
	}
	if len(opts.Flags) > 0 {
		m := map[string]any{}
		for key, v := range opts.Flags {
			f, ok := lookupField(key)
			if !ok {
				return nil, fmt.Errorf("%w: flag sets unknown key %s", ErrInvalid, key)
			}
			val, err := coerce(f, v, true)
			if err == nil && f.check != nil {
				err = f.check(val)
			}
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, flagName(opts.FlagNames, key), err)
			}
			m[key] = val
		}
		if err := l.merge(m, func(key string) string { return "flag " + flagName(opts.FlagNames, key) }); err != nil {
			return nil, err
		}
	}
	return l.resolve(projectRoot, opts.Home)
}

func flagName(names map[string]string, key string) string {
	if n := names[key]; n != "" {
		return n
	}
	return key
}

func (l *loader) merge(m map[string]any, origin func(string) string) error {
	if err := l.k.Load(confmap.Provider(m, "."), nil); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	for key := range m {
		l.origin[key] = origin(key)
	}
	return nil
}

// loadFile parses, validates and merges one TOML file. A missing file is
// not an error; an unreadable one is.
func (l *loader) loadFile(path string, project bool) error {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: read %s: %v", ErrInvalid, path, err)
	}
	layer := koanf.New(".")
	if err := layer.Load(rawBytes(data), toml.Parser()); err != nil {
		var de *gotoml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return fmt.Errorf("%w: %s:%d:%d: %s; fix the TOML syntax", ErrInvalid, path, row, col, de.Error())
		}
		return fmt.Errorf("%w: %s: %v; fix the TOML syntax", ErrInvalid, path, err)
	}
	m := map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(layer.All())) {
		line := keyLine(data, key)
		where := fmt.Sprintf("%s:%d", path, line)
		f, ok := lookupField(key)
		if !ok {
			return fmt.Errorf("%w: %s: unknown key %s; see 'airlock config --keys' for the valid keys", ErrInvalid, where, key)
		}
		if project && f.noProject {
			return fmt.Errorf("%w: %s: %s cannot be set in a project file; set it in your own config", ErrInvalid, where, key)
		}
		val, err := coerce(f, layer.Get(key), false)
		if err == nil && f.check != nil {
			err = f.check(val)
		}
		if err == nil && project && key == "sandbox.mode" && val == "danger-full-access" {
			err = errors.New("a project file cannot turn the sandbox off")
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %s: %v", ErrInvalid, where, key, err)
		}
		m[key] = val
	}
	return l.merge(m, func(key string) string { return fmt.Sprintf("%s:%d", path, keyLine(data, key)) })
}

func (l *loader) loadEnv(env map[string]string) error {
	m := map[string]any{}
	names := map[string]string{}
	for name, v := range env {
		rest, ok := strings.CutPrefix(name, EnvPrefix)
		if !ok || !strings.Contains(rest, "__") {
			continue
		}
		key := strings.ToLower(strings.ReplaceAll(rest, "__", "."))
		f, ok := lookupField(key)
		if !ok {
			return fmt.Errorf("%w: environment variable %s sets unknown key %s; unset it", ErrInvalid, name, key)
		}
		val, err := coerce(f, v, true)
		if err == nil && f.check != nil {
			err = f.check(val)
		}
		if err != nil {
			return fmt.Errorf("%w: environment variable %s: %v", ErrInvalid, name, err)
		}
		m[key] = val
		names[key] = name
	}
	return l.merge(m, func(key string) string { return "env " + names[key] })
}

// coerce converts a raw value to the field's type. Strings from the
// environment and flags are parsed (lists split on commas).
func coerce(f field, v any, fromString bool) (any, error) {
	s, isString := v.(string)
	switch f.kind {
	case kString:
		if !isString {
			return nil, fmt.Errorf("want a string, got %T", v)
		}
		return s, nil
	case kBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		if fromString && isString {
			b, err := strconv.ParseBool(s)
			if err != nil {
				return nil, fmt.Errorf("%q is not true or false", s)
			}
			return b, nil
		}
		return nil, fmt.Errorf("want true or false, got %T", v)
	case kDuration:
		if !isString {
			return nil, fmt.Errorf("want a duration string such as \"5s\", got %T", v)
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a duration such as \"5s\"", s)
		}
		return d, nil
	case kList:
		switch x := v.(type) {
		case []string:
			return x, nil
		case []any:
			out := make([]string, 0, len(x))
			for _, e := range x {
				es, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("want a list of strings, found %T", e)
				}
				out = append(out, es)
			}
			return out, nil
		case string:
			if fromString {
				if x == "" {
					return []string{}, nil
				}
				return strings.Split(x, ","), nil
			}
		}
		return nil, fmt.Errorf("want a list of strings, got %T", v)
	}
	return nil, fmt.Errorf("unsupported type")
}

func (l *loader) resolve(projectRoot, home string) (*Config, error) {
	k := l.k
	c := &Config{k: k, Origin: l.origin, ProjectRoot: projectRoot, Plugins: map[string]PluginEntry{}}
	c.Sandbox.Mode = k.String("sandbox.mode")
	c.Sandbox.Network = k.String("sandbox.network")
	c.Sandbox.Backend = k.String("sandbox.backend")
	c.Sandbox.AddDirs = expandAll(k.Strings("sandbox.add_dirs"), home)
	c.Sandbox.DenyRead = expandAll(k.Strings("sandbox.deny_read"), home)
	c.Sandbox.ProtectedNames = k.Strings("sandbox.protected_names")
	c.Sandbox.AllowDegraded = k.Bool("sandbox.allow_degraded")
	c.Approval.Policy = k.String("approval.policy")
	c.Approval.Reject = k.Strings("approval.reject")
	c.Approval.Timeout = k.Duration("approval.timeout")
	c.Approval.AllowUnsandboxed = k.Bool("approval.allow_unsandboxed")
	c.Rules.Paths = expandAll(k.Strings("rules.paths"), home)
	c.Shell.Mode = k.String("shell.mode")
	c.Assessor.Backend = k.String("assessor.backend")
	c.Assessor.Timeout = k.Duration("assessor.timeout")
	c.Assessor.Model.BaseURL = k.String("assessor.model.base_url")
	c.Assessor.Model.Name = k.String("assessor.model.name")
	c.Assessor.Model.APIKeyEnv = k.String("assessor.model.api_key_env")
	c.Assessor.Model.API = k.String("assessor.model.api")
	c.Assessor.Model.Stream = k.Bool("assessor.model.stream")
	c.Plugin.StartTimeout = k.Duration("plugin.start_timeout")
	c.Plugin.CallTimeout = k.Duration("plugin.call_timeout")
	c.Plugin.ReuseLaunchSpecs = k.Bool("plugin.reuse_launch_specs")
	c.LogLevel = k.String("log.level")
	c.TrustedProjects = expandAll(k.Strings("trusted_projects"), home)
	for _, n := range k.MapKeys("plugins") {
		e := PluginEntry{Kind: k.String("plugins." + n + ".kind"), Path: k.String("plugins." + n + ".path"), SHA256: k.String("plugins." + n + ".sha256")}
		if e.Kind == "" || e.Path == "" {
			return nil, fmt.Errorf("%w: %s: plugins.%s needs both kind and path", ErrInvalid, l.origin["plugins."+n+".path"]+l.origin["plugins."+n+".kind"], n)
		}
		c.Plugins[n] = e
	}
	for _, n := range c.Sandbox.ProtectedNames {
		if n == "" || n == "." || n == ".." || strings.ContainsRune(n, '/') {
			return nil, fmt.Errorf("%w: %s: sandbox.protected_names: %q is not a single file name", ErrInvalid, l.origin["sandbox.protected_names"], n)
		}
	}
	return c, nil
}

// Expand turns a leading "~/" into home and cleans the path.
func Expand(p, home string) string {
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return filepath.Clean(p)
}

func expandAll(ps []string, home string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, Expand(p, home))
	}
	return out
}

// trustedRoot returns the trusted project containing cwd, if any.
func trustedRoot(trusted []string, cwd, home string) string {
	if cwd == "" {
		return ""
	}
	best := ""
	for _, t := range trusted {
		t = Expand(t, home)
		if real, err := filepath.EvalSymlinks(t); err == nil {
			t = real
		}
		if (cwd == t || strings.HasPrefix(cwd, t+"/")) && len(t) > len(best) {
			best = t
		}
	}
	return best
}

// keyLine finds the line that sets a flattened key in TOML text, following
// [table] headers and dotted keys. It returns 0 when it cannot tell (an
// inline table spread over a value, for example).
func keyLine(data []byte, key string) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	prefix := ""
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if strings.HasPrefix(line, "[") {
			h := strings.Trim(strings.SplitN(line, "#", 2)[0], " \t[]")
			prefix = unquoteDotted(h)
			if prefix == key {
				return n
			}
			continue
		}
		lhs, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		full := unquoteDotted(strings.TrimSpace(lhs))
		if prefix != "" {
			full = prefix + "." + full
		}
		if full == key || strings.HasPrefix(key, full+".") {
			return n
		}
	}
	return 0
}

func unquoteDotted(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// rawBytes is a koanf provider over bytes already read, so the same bytes
// are parsed and searched for line numbers.
type rawBytes []byte

func (r rawBytes) ReadBytes() ([]byte, error) { return r, nil }

func (r rawBytes) Read() (map[string]any, error) {
	return nil, errors.New("rawBytes provider supports ReadBytes only")
}
