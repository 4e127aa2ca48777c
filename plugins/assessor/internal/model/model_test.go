package model

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/sdk/assessor"
)

// rulesStub stands in for the rules assessor.
type rulesStub struct{}

func (rulesStub) Info(context.Context, *assessor.InfoRequest) (*assessor.Info, error) {
	return &assessor.Info{Name: "rules"}, nil
}
func (rulesStub) Assess(context.Context, *assessor.Request) (*assessor.Verdict, error) {
	return &assessor.Verdict{Description: "from the rules", Level: assessor.Medium, Source: "rules"}, nil
}

const goodJSON = `{"description":"Deletes the build directory.","risk_level":"medium","risk_categories":["data_deletion"]}`

// fake is an OpenAI-compatible server on 127.0.0.1 with a chosen
// behaviour; it records every request body.
type fake struct {
	srv   *httptest.Server
	mode  string
	hits  atomic.Int32
	last  atomic.Value
	delay time.Duration
}

func newFake(t *testing.T, mode string) *fake {
	f := &fake{mode: mode}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	f.hits.Add(1)
	b, _ := io.ReadAll(r.Body)
	f.last.Store(string(b) + "\n" + r.Header.Get("Authorization"))
	chat := strings.HasSuffix(r.URL.Path, "/chat/completions")
	content, _ := json.Marshal(goodJSON)
	switch f.mode {
	case "slow":
		time.Sleep(2 * time.Second)
	case "500":
		http.Error(w, "boom", http.StatusInternalServerError)
		return
	case "429":
		http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
		return
	case "garbage":
		io.WriteString(w, "<html>not json</html>")
		return
	case "empty":
		io.WriteString(w, `{"choices":[{"message":{"content":""}}]}`)
		return
	case "badschema":
		bad, _ := json.Marshal(`{"description":"x","risk_level":"extreme","risk_categories":[]}`)
		fmt.Fprintf(w, `{"choices":[{"message":{"content":%s}}]}`, bad)
		return
	case "stream":
		w.Header().Set("Content-Type", "text/event-stream")
		half := len(goodJSON) / 2
		for _, part := range []string{goodJSON[:half], goodJSON[half:]} {
			p, _ := json.Marshal(part)
			if chat {
				fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"content\":%s}}]}\n\n", p)
			} else {
				fmt.Fprintf(w, "data: {\"type\":\"response.output_text.delta\",\"delta\":%s}\n\n", p)
			}
		}
		io.WriteString(w, "data: [DONE]\n\n")
		return
	}
	if chat {
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s}}]}`, content)
	} else {
		fmt.Fprintf(w, `{"output":[{"type":"message","content":[{"type":"output_text","text":%s}]}]}`, content)
	}
}

func TestModelAssessor(t *testing.T) {
	tests := []struct {
		mode, api  string
		stream     bool
		wantStatus string
		wantModel  bool
	}{
		{"ok", "chat", false, StatusSuccess, true},
		{"ok", "responses", false, StatusSuccess, true},
		{"stream", "chat", true, StatusSuccess, true},
		{"stream", "responses", true, StatusSuccess, true},
		{"slow", "chat", false, StatusTimeout, false},
		{"500", "chat", false, StatusModelError, false},
		{"429", "responses", false, StatusModelError, false},
		{"garbage", "chat", false, StatusParseError, false},
		{"empty", "chat", false, StatusNoOutput, false},
		{"badschema", "chat", false, StatusParseError, false},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.api, func(t *testing.T) {
			f := newFake(t, tt.mode)
			a := New(Config{BaseURL: f.srv.URL + "/v1", Model: "m", APIKey: "sk-test", API: tt.api, Stream: tt.stream, Timeout: 300 * time.Millisecond}, rulesStub{})
			start := time.Now()
			v, err := a.Assess(context.Background(), &assessor.Request{CommandLine: "rm -rf build", Cwd: "/w", Platform: "linux"})
			if err != nil {
				t.Fatal(err)
			}
			if time.Since(start) > 1500*time.Millisecond {
				t.Errorf("took %v; the deadline was 300ms", time.Since(start))
			}
			if !strings.Contains(v.Source, "status "+tt.wantStatus) {
				t.Errorf("source %q, want status %s", v.Source, tt.wantStatus)
			}
			if got := strings.HasPrefix(v.Source, "model:"); got != tt.wantModel {
				t.Errorf("source %q: answered by the model = %v, want %v", v.Source, got, tt.wantModel)
			}
			if tt.wantModel && (v.Level != assessor.Medium || v.Description != "Deletes the build directory.") {
				t.Errorf("verdict %+v", v)
			}
		})
	}
}

func TestModelRequestIsRedactedAndFresh(t *testing.T) {
	f := newFake(t, "ok")
	a := New(Config{BaseURL: f.srv.URL, Model: "m", APIKey: "sk-key"}, rulesStub{})
	line := `curl -H "Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789" "https://api.example.com/x?token=s3cr3tv4lue&q=1" -u bob:hunter2 --password=topsecret && GITHUB_TOKEN=abc123def mysql -phunter3 db`
	if _, err := a.Assess(context.Background(), &assessor.Request{CommandLine: line, Cwd: "/w", Platform: "linux",
		Sandbox: assessor.SandboxSummary{Mode: "workspace-write", Network: "off", WritableRoots: []string{"/w"}}, FailureMessage: "blocked"}); err != nil {
		t.Fatal(err)
	}
	sent := f.last.Load().(string)
	for _, secret := range []string{"ghp_abcdefghijklmnopqrstuvwxyz0123456789", "s3cr3tv4lue", "hunter2", "topsecret", "abc123def", "hunter3"} {
		if strings.Contains(sent, secret) {
			t.Errorf("the request carries the secret %q:\n%s", secret, sent)
		}
	}
	for _, want := range []string{"workspace-write", "/w", "linux", "blocked", `\"argv\"`, "curl -H", "json_schema"} {
		if !strings.Contains(sent, want) {
			t.Errorf("the request lacks %q", want)
		}
	}
	if strings.Count(sent, `"role"`) != 2 {
		t.Errorf("the request should hold only the system prompt and the command:\n%s", sent)
	}
}

func TestModelCache(t *testing.T) {
	f := newFake(t, "ok")
	a := New(Config{BaseURL: f.srv.URL, Model: "m", CacheDir: t.TempDir()}, rulesStub{})
	req := &assessor.Request{CommandLine: "rm -rf build"}
	for range 3 {
		if _, err := a.Assess(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.hits.Load(); n != 1 {
		t.Fatalf("server hit %d times, want 1 (identical requests come from the cache)", n)
	}
	if _, err := a.Assess(context.Background(), &assessor.Request{CommandLine: "rm -rf dist"}); err != nil {
		t.Fatal(err)
	}
	if n := f.hits.Load(); n != 2 {
		t.Fatalf("a different command should reach the model: %d hits", n)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"find . -print":                        "find . -print",
		"mkdir -p a/b":                         "mkdir -p a/b",
		"git clone https://u:pw@host/r":        "git clone https://u:[REDACTED]@host/r",
		"export AWS_SECRET_ACCESS_KEY=abcd":    "export AWS_SECRET_ACCESS_KEY=[REDACTED]",
		"echo sk-proj-abcdefghijklmnopqrstuv":  "echo [REDACTED]",
		"curl -H 'X-Api-Key: 123' https://a.b": "curl -H 'X-Api-Key: [REDACTED]' https://a.b",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
