package broker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"

	"github.com/hashicorp/go-plugin/runner"

	"github.com/airlock-dev/airlock/internal/pluginhost"
)

// cmdRunner runs a plugin binary the way a security tool should: go-plugin's
// own runner hands the plugin the host's stdin, which may be the user's
// terminal.
type cmdRunner struct {
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr io.ReadCloser
}

var _ runner.Runner = (*cmdRunner)(nil)

func newRunner(path string, goPluginEnv, env []string) (*cmdRunner, error) {
	cmd := exec.Command(path)
	cmd.Env = append(append([]string{}, env...), goPluginEnv...)
	cmd.Stdin = nil // os/exec opens /dev/null
	cmd.Dir = "/"
	cmd.SysProcAttr = pluginhost.SysProcAttr()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	return &cmdRunner{cmd: cmd, stdout: stdout, stderr: stderr}, nil
}

func (r *cmdRunner) Start(context.Context) error { return r.cmd.Start() }

func (r *cmdRunner) Diagnose(context.Context) string {
	return fmt.Sprintf("the plugin %s did not complete the airlock plugin handshake: is it an airlock plugin built for this system?", r.cmd.Path)
}

func (r *cmdRunner) Stdout() io.ReadCloser { return r.stdout }
func (r *cmdRunner) Stderr() io.ReadCloser { return r.stderr }
func (r *cmdRunner) Name() string          { return r.cmd.Path }

func (r *cmdRunner) Wait(context.Context) error { return r.cmd.Wait() }

func (r *cmdRunner) Kill(context.Context) error {
	if r.cmd.Process == nil {
		return nil
	}
	if err := r.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

func (r *cmdRunner) ID() string {
	if r.cmd.Process == nil {
		return ""
	}
	return strconv.Itoa(r.cmd.Process.Pid)
}

func (r *cmdRunner) PluginToHost(n, a string) (string, string, error) { return n, a, nil }
func (r *cmdRunner) HostToPlugin(n, a string) (string, string, error) { return n, a, nil }
