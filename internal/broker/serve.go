package broker

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/airlock-dev/airlock/internal/logging"
	"github.com/airlock-dev/airlock/internal/pluginhost"
	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// Serve reads the options line and then requests from in, answering each
// on out, until in ends; then it stops every plugin it started.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	rd := bufio.NewReaderSize(in, 64<<10)
	line, err := rd.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("broker: no options: %w", err)
	}
	var opts pluginhost.BrokerOptions
	if err := json.Unmarshal(line, &opts); err != nil {
		return fmt.Errorf("broker: options: %w", err)
	}
	log := logging.Discard()
	if opts.StateDir != "" {
		log = logging.Open(opts.StateDir, opts.LogLevel)
	}
	defer log.Close()
	h := New(Options{Log: log, StartTimeout: opts.StartTimeout, CallTimeout: opts.CallTimeout, SocketDir: opts.SocketDir, Env: opts.Env, UID: opts.UID})
	defer h.Close()
	s := &server{h: h, out: out, sandboxes: map[string]sandbox.Sandbox{}, assessors: map[string]assessor.Assessor{}}
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		line, err := rd.ReadBytes('\n')
		if len(line) > 0 {
			var req pluginhost.Request
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				return fmt.Errorf("broker: request: %w", jerr)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.answer(ctx, &req)
			}()
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("broker: read: %w", err)
		}
	}
}

type server struct {
	h         *Host
	wmu       sync.Mutex
	out       io.Writer
	mu        sync.Mutex
	sandboxes map[string]sandbox.Sandbox
	assessors map[string]assessor.Assessor
}

func entryKey(e pluginhost.Entry) string {
	return e.Kind + "\x00" + e.Name + "\x00" + e.Path + "\x00" + e.SHA256 + "\x00" + strings.Join(e.Env, "\x00")
}

func (s *server) answer(ctx context.Context, req *pluginhost.Request) {
	if req.TimeoutMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	res, err := s.call(ctx, req)
	resp := pluginhost.Response{ID: req.ID, Error: pluginhost.EncodeError(err)}
	if err == nil && res != nil {
		b, merr := json.Marshal(res)
		if merr != nil {
			resp.Error = pluginhost.EncodeError(fmt.Errorf("broker: encode answer: %w", merr))
		}
		resp.Result = b
	}
	b, _ := json.Marshal(&resp)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.out.Write(append(b, '\n'))
}

// sandboxFor returns the started sandbox plugin for e, starting it once.
func (s *server) sandboxFor(ctx context.Context, e pluginhost.Entry) (sandbox.Sandbox, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb, ok := s.sandboxes[entryKey(e)]; ok {
		return sb, nil
	}
	sb, err := s.h.Sandbox(ctx, e)
	if err != nil {
		return nil, err
	}
	s.sandboxes[entryKey(e)] = sb
	return sb, nil
}

func (s *server) assessorFor(ctx context.Context, e pluginhost.Entry) (assessor.Assessor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.assessors[entryKey(e)]; ok {
		return a, nil
	}
	a, err := s.h.Assessor(ctx, e)
	if err != nil {
		return nil, err
	}
	s.assessors[entryKey(e)] = a
	return a, nil
}

func decode[T any](raw json.RawMessage) (*T, error) {
	v := new(T)
	if len(raw) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("broker: params: %w", err)
	}
	return v, nil
}

func (s *server) call(ctx context.Context, req *pluginhost.Request) (any, error) {
	switch req.Method {
	case pluginhost.MethodStartSandbox:
		_, err := s.sandboxFor(ctx, req.Entry)
		return nil, err
	case pluginhost.MethodStartAssessor:
		_, err := s.assessorFor(ctx, req.Entry)
		return nil, err
	case pluginhost.MethodInfo, pluginhost.MethodProbe, pluginhost.MethodPrepare, pluginhost.MethodExplain:
		sb, err := s.sandboxFor(ctx, req.Entry)
		if err != nil {
			return nil, err
		}
		switch req.Method {
		case pluginhost.MethodInfo:
			p, err := decode[sandbox.InfoRequest](req.Params)
			if err != nil {
				return nil, err
			}
			return sb.Info(ctx, p)
		case pluginhost.MethodProbe:
			p, err := decode[sandbox.ProbeRequest](req.Params)
			if err != nil {
				return nil, err
			}
			return sb.Probe(ctx, p)
		case pluginhost.MethodPrepare:
			p, err := decode[sandbox.PrepareRequest](req.Params)
			if err != nil {
				return nil, err
			}
			return sb.Prepare(ctx, p)
		default:
			p, err := decode[sandbox.ExplainRequest](req.Params)
			if err != nil {
				return nil, err
			}
			return sb.Explain(ctx, p)
		}
	case pluginhost.MethodAssessorInfo, pluginhost.MethodAssess:
		a, err := s.assessorFor(ctx, req.Entry)
		if err != nil {
			return nil, err
		}
		if req.Method == pluginhost.MethodAssessorInfo {
			p, err := decode[assessor.InfoRequest](req.Params)
			if err != nil {
				return nil, err
			}
			return a.Info(ctx, p)
		}
		p, err := decode[assessor.Request](req.Params)
		if err != nil {
			return nil, err
		}
		return a.Assess(ctx, p)
	}
	return nil, fmt.Errorf("broker: unknown method %q", req.Method)
}
