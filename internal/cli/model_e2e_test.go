//go:build linux

package cli_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestAssess_modelBackedWithFallback configures the model-backed assessor
// against a fake OpenAI-compatible server on 127.0.0.1: a good answer comes
// from the model, the API key is sent from the named variable, and a
// broken server falls back to the rules.
func TestAssess_modelBackedWithFallback(t *testing.T) {
	var broken atomic.Bool
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		io.Copy(io.Discard, r.Body)
		if broken.Load() {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		content, _ := json.Marshal(`{"description":"Model says: deletes build.","risk_level":"medium","risk_categories":["data_deletion"]}`)
		fmt.Fprintf(w, `{"choices":[{"message":{"content":%s}}]}`, content)
	}))
	defer srv.Close()
	e := newEnv(t)
	e.writeConfig(t, fmt.Sprintf("[assessor]\ntimeout = \"3s\"\n[assessor.model]\nbase_url = %q\nname = \"fake-1\"\napi_key_env = \"FAKE_KEY\"\n", srv.URL+"/v1"))
	e.vars = append(e.vars, "FAKE_KEY=sk-fake-key")

	r := e.run(t, nil, "assess", "--json", "rm -rf build")
	var v struct {
		Description string `json:"description"`
		RiskLevel   string `json:"risk_level"`
		Source      string `json:"source"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || r.code != 0 {
		t.Fatalf("assess: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(v.Source, "model:fake-1") || v.Description != "Model says: deletes build." {
		t.Fatalf("not answered by the model: %+v", v)
	}
	if got, _ := auth.Load().(string); got != "Bearer sk-fake-key" {
		t.Errorf("authorization header %q", got)
	}

	broken.Store(true)
	r = e.run(t, nil, "assess", "--json", "rm -rf dist")
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || r.code != 0 {
		t.Fatalf("assess: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(v.Source, "rules") || !strings.Contains(v.Source, "status model_error") || v.RiskLevel == "" {
		t.Fatalf("a broken model should fall back to the rules and say why: %+v", v)
	}
}
