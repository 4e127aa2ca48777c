package pluginhost

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"

	"github.com/airlock-dev/airlock/internal/logging"
	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// BrokerName is the helper binary, installed next to airlock, that runs
// plugins for the host.
const BrokerName = "airlock-broker"

// Options configure a [Host].
type Options struct {
	Log *logging.Logger
	// BrokerPath is the broker binary.
	BrokerPath   string
	StartTimeout time.Duration
	CallTimeout  time.Duration
	// SocketDir is a private (0700) directory for plugin sockets.
	SocketDir string
	// Env is the explicit environment plugins get, on top of go-plugin's
	// handshake variables.
	Env []string
	UID int
	// StateDir is where the broker writes its log.
	StateDir string
}

// Host starts plugins, through its broker, and stops them all on Close.
// The broker, and with it gRPC, starts only when a plugin is first needed,
// so commands that need none (a cached launch spec, airlock check) start
// fast.
type Host struct {
	opts Options

	mu       sync.Mutex
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	startErr error
	nextID   uint64
	pending  map[uint64]chan Response
	done     chan struct{}
	readErr  error
}

// New returns a host. It starts nothing until asked.
func New(opts Options) *Host {
	if opts.Log == nil {
		opts.Log = logging.Discard()
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 5 * time.Second
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 10 * time.Second
	}
	return &Host{opts: opts, pending: map[uint64]chan Response{}}
}

// Close stops the broker, which kills every plugin it started.
func (h *Host) Close() {
	h.mu.Lock()
	cmd, stdin, done := h.cmd, h.stdin, h.done
	h.cmd = nil
	h.mu.Unlock()
	if cmd == nil {
		return
	}
	stdin.Close()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	_ = cmd.Wait()
}

// broker starts the broker once.
func (h *Host) broker() error {
	if h.cmd != nil || h.startErr != nil {
		return h.startErr
	}
	path, err := Check(Entry{Name: BrokerName, Kind: "broker", Path: h.opts.BrokerPath}, h.opts.UID)
	if err != nil {
		h.startErr = fmt.Errorf("%w: %v; reinstall airlock with 'make install'", ErrStart, err)
		return h.startErr
	}
	cmd := exec.Command(path)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = SysProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		h.startErr = fmt.Errorf("%w: broker: %v", ErrStart, err)
		return h.startErr
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		h.startErr = fmt.Errorf("%w: broker: %v", ErrStart, err)
		return h.startErr
	}
	// The broker logs to the host log itself; its stderr is /dev/null so
	// nothing it says reaches the user's terminal.
	if err := cmd.Start(); err != nil {
		h.startErr = fmt.Errorf("%w: broker %s: %v", ErrStart, path, err)
		return h.startErr
	}
	opts := BrokerOptions{StartTimeout: h.opts.StartTimeout, CallTimeout: h.opts.CallTimeout, SocketDir: h.opts.SocketDir,
		Env: h.opts.Env, UID: h.opts.UID, StateDir: h.opts.StateDir, LogLevel: h.opts.Log.Level}
	b, _ := json.Marshal(&opts)
	if _, err := stdin.Write(append(b, '\n')); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		h.startErr = fmt.Errorf("%w: broker: %v", ErrStart, err)
		return h.startErr
	}
	h.cmd, h.stdin, h.done = cmd, stdin, make(chan struct{})
	go h.read(stdout, h.done)
	return nil
}

// read delivers responses to their callers until the broker's output ends.
func (h *Host) read(r io.Reader, done chan struct{}) {
	defer close(done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var resp Response
		if json.Unmarshal(sc.Bytes(), &resp) != nil {
			continue
		}
		h.mu.Lock()
		ch := h.pending[resp.ID]
		delete(h.pending, resp.ID)
		h.mu.Unlock()
		if ch != nil {
			ch <- resp
		}
	}
	h.mu.Lock()
	h.readErr = errors.New("the plugin broker exited")
	for id, ch := range h.pending {
		ch <- Response{ID: id, Error: EncodeError(fmt.Errorf("%w: %v", sandbox.ErrPluginExited, h.readErr))}
		delete(h.pending, id)
	}
	h.mu.Unlock()
}

// call sends one request and waits for its answer, the caller's deadline
// or the end of the broker.
func (h *Host) call(ctx context.Context, e Entry, method string, params, result any) error {
	var raw json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return fmt.Errorf("plugin call: %w", err)
		}
		raw = b
	}
	h.mu.Lock()
	if err := h.broker(); err != nil {
		h.mu.Unlock()
		return err
	}
	if h.readErr != nil {
		err := h.readErr
		h.mu.Unlock()
		return fmt.Errorf("%w: %v", sandbox.ErrPluginExited, err)
	}
	h.nextID++
	req := Request{ID: h.nextID, Entry: e, Method: method, Params: raw}
	if dl, ok := ctx.Deadline(); ok {
		req.TimeoutMS = max(1, time.Until(dl).Milliseconds())
	}
	ch := make(chan Response, 1)
	h.pending[req.ID] = ch
	b, _ := json.Marshal(&req)
	_, werr := h.stdin.Write(append(b, '\n'))
	h.mu.Unlock()
	if werr != nil {
		h.forget(req.ID)
		return fmt.Errorf("%w: the plugin broker is gone: %v", sandbox.ErrPluginExited, werr)
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return resp.Error.Err()
		}
		if result != nil && len(resp.Result) > 0 {
			if err := json.Unmarshal(resp.Result, result); err != nil {
				return fmt.Errorf("%w: %v", sandbox.ErrInvalidResponse, err)
			}
		}
		return nil
	case <-ctx.Done():
		h.forget(req.ID)
		return ctx.Err()
	}
}

func (h *Host) forget(id uint64) {
	h.mu.Lock()
	delete(h.pending, id)
	h.mu.Unlock()
}

// Sandbox starts the sandbox plugin e.
func (h *Host) Sandbox(ctx context.Context, e Entry) (sandbox.Sandbox, error) {
	if err := h.call(ctx, e, MethodStartSandbox, nil, nil); err != nil {
		return nil, err
	}
	return &remoteSandbox{h: h, e: e}, nil
}

// Assessor starts the assessor plugin e.
func (h *Host) Assessor(ctx context.Context, e Entry) (assessor.Assessor, error) {
	if err := h.call(ctx, e, MethodStartAssessor, nil, nil); err != nil {
		return nil, err
	}
	return &remoteAssessor{h: h, e: e}, nil
}

// remoteSandbox is a sandbox plugin reached through the broker, which
// applies the deadlines and checks; the launch spec is checked again here,
// where it will run.
type remoteSandbox struct {
	h *Host
	e Entry
}

func (r *remoteSandbox) Info(ctx context.Context, req *sandbox.InfoRequest) (*sandbox.Info, error) {
	out := new(sandbox.Info)
	return out, r.h.call(ctx, r.e, MethodInfo, req, out)
}

func (r *remoteSandbox) Probe(ctx context.Context, req *sandbox.ProbeRequest) (*sandbox.ProbeResult, error) {
	out := new(sandbox.ProbeResult)
	return out, r.h.call(ctx, r.e, MethodProbe, req, out)
}

func (r *remoteSandbox) Prepare(ctx context.Context, req *sandbox.PrepareRequest) (*sandbox.PrepareResponse, error) {
	out := new(sandbox.PrepareResponse)
	if err := r.h.call(ctx, r.e, MethodPrepare, req, out); err != nil {
		return nil, err
	}
	if err := out.Spec.Validate(); err != nil {
		return nil, fmt.Errorf("sandbox plugin %s: prepare: %w", r.e.Name, err)
	}
	return out, nil
}

func (r *remoteSandbox) Explain(ctx context.Context, req *sandbox.ExplainRequest) (*sandbox.ExplainResponse, error) {
	out := new(sandbox.ExplainResponse)
	return out, r.h.call(ctx, r.e, MethodExplain, req, out)
}

type remoteAssessor struct {
	h *Host
	e Entry
}

func (r *remoteAssessor) Info(ctx context.Context, req *assessor.InfoRequest) (*assessor.Info, error) {
	out := new(assessor.Info)
	return out, r.h.call(ctx, r.e, MethodAssessorInfo, req, out)
}

func (r *remoteAssessor) Assess(ctx context.Context, req *assessor.Request) (*assessor.Verdict, error) {
	out := new(assessor.Verdict)
	if err := r.h.call(ctx, r.e, MethodAssess, req, out); err != nil {
		return nil, err
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("assessor plugin %s: assess: %w", r.e.Name, err)
	}
	return out, nil
}
