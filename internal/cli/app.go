package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/config"
	"github.com/airlock-dev/airlock/internal/logging"
	"github.com/airlock-dev/airlock/internal/pluginhost"
	"github.com/airlock-dev/airlock/internal/rules"
	"github.com/airlock-dev/airlock/internal/xdg"
)

// app is what every subcommand that touches plugins needs.
type app struct {
	cfg     *config.Config
	dirs    xdg.Dirs
	log     *logging.Logger
	host    *pluginhost.Host
	entries []pluginhost.Entry
	env     env
	cwd     string
	rules   *rules.Set
	// displayed is set once airlock has written to the user's terminal
	// (a prompt, a refusal), so the shell integration redraws below it.
	displayed bool
	// message is the line a judge server hands the shell to print.
	message string
}

// newApp loads the configuration (with flags as the last layer), opens the
// log and prepares, without starting, the plugin host.
func newApp(e env, flags map[string]any, flagNames map[string]string) (*app, error) {
	dirs, err := xdg.Resolve(e.m, os.Getuid())
	if err != nil {
		return nil, err
	}
	if err := dirs.EnsurePrivate(os.Getuid()); err != nil {
		return nil, err
	}
	cwd := e.cwd
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("working directory: %w", err)
		}
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	cfg, err := config.Load(config.Options{
		Env:        e.m,
		SystemFile: config.SystemFile,
		UserFile:   filepath.Join(dirs.Config, "config.toml"),
		Home:       dirs.Home,
		Cwd:        cwd,
		Flags:      flags,
		FlagNames:  flagNames,
	})
	if err != nil {
		return nil, err
	}
	level := cfg.LogLevel
	if v := e.m[logging.EnvLevel]; v != "" {
		level = v
	}
	log := logging.Open(dirs.State, level)
	configured := map[string]pluginhost.Configured{}
	for n, p := range cfg.Plugins {
		configured[n] = pluginhost.Configured{Kind: p.Kind, Path: p.Path, SHA256: p.SHA256}
	}
	selfDir := ""
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			selfDir = filepath.Dir(real)
		}
	}
	a := &app{cfg: cfg, dirs: dirs, log: log, env: e, cwd: cwd}
	a.entries = pluginhost.Discover(selfDir, filepath.Join(dirs.Data, "plugins"), configured)
	a.host = pluginhost.New(pluginhost.Options{
		Log:          log,
		BrokerPath:   filepath.Join(selfDir, pluginhost.BrokerName),
		StateDir:     dirs.State,
		StartTimeout: cfg.Plugin.StartTimeout,
		CallTimeout:  cfg.Plugin.CallTimeout,
		SocketDir:    filepath.Join(dirs.Runtime, "plugins"),
		Env:          pluginEnv(e),
		UID:          os.Getuid(),
	})
	return a, nil
}

// pluginEnv is the explicit environment for plugins: enough to run, none of
// the user's secrets.
func pluginEnv(e env) []string {
	out := []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	for _, k := range []string{"HOME", "LANG", "LC_ALL", "TMPDIR", "XDG_RUNTIME_DIR"} {
		if v, ok := e.m[k]; ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}

func (a *app) close() {
	a.host.Close()
	_ = a.log.Close()
}
