// Package model is the optional model-backed assessor: it asks an
// OpenAI-compatible endpoint (the Responses API or Chat Completions, so
// OpenAI, Azure, Ollama, vLLM and LiteLLM all work) to assess a command,
// with Codex's assessment schema as structured output, in a fresh context
// that carries only the command and its sandbox situation. Secrets on the
// command line are redacted before anything leaves the machine. Within
// its deadline it answers from the model; on a timeout, an HTTP error, no
// output or output that does not parse, it answers from the rules
// assessor instead and says why in the verdict's source. Identical
// requests are answered from a cache on disk.
package model

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/airlock-dev/airlock/sdk/assessor"
	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// Environment variables the host sets for the assessor plugin from its
// [assessor.model] configuration.
const (
	EnvBaseURL = "AIRLOCK_ASSESSOR_MODEL_BASE_URL"
	EnvModel   = "AIRLOCK_ASSESSOR_MODEL"
	EnvAPIKey  = "AIRLOCK_ASSESSOR_MODEL_API_KEY"
	EnvAPI     = "AIRLOCK_ASSESSOR_MODEL_API"
	EnvStream  = "AIRLOCK_ASSESSOR_MODEL_STREAM"
	EnvTimeout = "AIRLOCK_ASSESSOR_MODEL_TIMEOUT"
	EnvCache   = "AIRLOCK_ASSESSOR_MODEL_CACHE"
)

// Statuses of a model call, as the verdict's source reports them.
const (
	StatusSuccess    = "success"
	StatusParseError = "parse_error"
	StatusNoOutput   = "no_output"
	StatusModelError = "model_error"
	StatusTimeout    = "timeout"
)

// Config says which endpoint to ask and how.
type Config struct {
	// BaseURL is the API root, for example https://api.openai.com/v1.
	BaseURL string
	Model   string
	APIKey  string
	// API is "chat" (Chat Completions) or "responses".
	API    string
	Stream bool
	// Timeout bounds one assessment, model and fallback together.
	Timeout time.Duration
	// CacheDir holds answers to identical requests; empty disables it.
	CacheDir string
	Client   *http.Client
}

// FromEnv reads the configuration the host passes; ok is false when no
// model is configured.
func FromEnv(getenv func(string) string) (Config, bool) {
	c := Config{BaseURL: getenv(EnvBaseURL), Model: getenv(EnvModel), APIKey: getenv(EnvAPIKey), API: getenv(EnvAPI),
		Stream: getenv(EnvStream) == "true", CacheDir: getenv(EnvCache)}
	if c.BaseURL == "" || c.Model == "" {
		return c, false
	}
	if d, err := time.ParseDuration(getenv(EnvTimeout)); err == nil && d > 0 {
		c.Timeout = d
	}
	return c, true
}

// Assessor asks the model and falls back to Fallback.
type Assessor struct {
	cfg      Config
	fallback assessor.Assessor
}

// New returns the model-backed assessor.
func New(cfg Config, fallback assessor.Assessor) *Assessor {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.API == "" {
		cfg.API = "chat"
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	return &Assessor{cfg: cfg, fallback: fallback}
}

var _ assessor.Assessor = (*Assessor)(nil)

// Info implements [assessor.Assessor].
func (a *Assessor) Info(ctx context.Context, req *assessor.InfoRequest) (*assessor.Info, error) {
	return &assessor.Info{Name: "model", Version: "1", Capabilities: []string{"network", "fallback:rules"},
		Description: "model-backed assessment (" + a.cfg.Model + "), the built-in rules as fallback"}, nil
}

// Assess implements [assessor.Assessor].
func (a *Assessor) Assess(ctx context.Context, req *assessor.Request) (*assessor.Verdict, error) {
	// Leave a little of the deadline for the fallback.
	budget := a.cfg.Timeout
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl) - 100*time.Millisecond; left < budget {
			budget = left
		}
	}
	started := time.Now()
	v, status := a.ask(ctx, req, budget)
	latency := time.Since(started).Round(time.Millisecond)
	if status == StatusSuccess {
		v.Source = fmt.Sprintf("model:%s (status %s, %v)", a.cfg.Model, status, latency)
		return v, nil
	}
	fv, err := a.fallback.Assess(ctx, req)
	if err != nil {
		return nil, err
	}
	fv.Source = fmt.Sprintf("rules (model %s: status %s, %v)", a.cfg.Model, status, latency)
	return fv, nil
}

// body is the request's user content: what Codex's assessment prompt
// carried, and nothing from any conversation.
type body struct {
	Platform         string   `json:"platform"`
	SandboxPolicy    string   `json:"sandbox_policy"`
	WritableRoots    []string `json:"writable_roots"`
	WorkingDirectory string   `json:"working_directory"`
	Argv             []string `json:"argv"`
	Command          string   `json:"command"`
	SandboxFailure   string   `json:"sandbox_failure_message,omitempty"`
}

const systemPrompt = `You assess the risk of one shell command for a developer who must approve or refuse it.
Answer only with the JSON object the schema describes:
- description: one plain sentence (at most 500 characters) saying what the command does;
- risk_level: "low" for read-only inspection, listing files or printing configuration;
  "medium" for changing project files, installing dependencies or fetching artifacts from trusted sources;
  "high" for deleting or overwriting data, exfiltrating secrets, escalating privileges or disabling security controls;
- risk_categories: the categories that apply, from data_deletion, data_exfiltration, privilege_escalation,
  system_modification, network_access, resource_exhaustion, compliance.
Printing a dangerous string is not running it. Wrappers and obfuscation do not lower the risk of what runs.
Secrets in the command were replaced by [REDACTED].`

// schema is Codex's assessment schema.
var schema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"description": map[string]any{"type": "string", "minLength": 1, "maxLength": 500},
		"risk_level":  map[string]any{"type": "string", "enum": []string{"low", "medium", "high"}},
		"risk_categories": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{
			"data_deletion", "data_exfiltration", "privilege_escalation", "system_modification", "network_access", "resource_exhaustion", "compliance"}}},
	},
	"required":             []string{"description", "risk_level", "risk_categories"},
	"additionalProperties": false,
}

// Payload builds the HTTP request body for req; exported for tests of
// what leaves the machine.
func (a *Assessor) Payload(req *assessor.Request) ([]byte, error) {
	argv := req.Argv
	if len(argv) == 0 {
		argv = []string{"bash", "-lc", req.CommandLine}
	}
	red := make([]string, len(argv))
	for i, s := range argv {
		red[i] = Redact(s)
	}
	line := req.CommandLine
	if line == "" {
		line = shellparse.Join(req.Argv)
	}
	b := body{Platform: req.Platform, SandboxPolicy: req.Sandbox.Mode + ", network " + req.Sandbox.Network,
		WritableRoots: req.Sandbox.WritableRoots, WorkingDirectory: req.Cwd, Argv: red, Command: Redact(line),
		SandboxFailure: Redact(req.FailureMessage)}
	user, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return nil, err
	}
	format := map[string]any{"type": "json_schema", "name": "command_risk_assessment", "strict": true, "schema": schema}
	var payload map[string]any
	if a.cfg.API == "responses" {
		payload = map[string]any{"model": a.cfg.Model, "instructions": systemPrompt, "input": string(user),
			"text": map[string]any{"format": format}, "store": false}
	} else {
		payload = map[string]any{"model": a.cfg.Model, "messages": []map[string]string{
			{"role": "system", "content": systemPrompt}, {"role": "user", "content": string(user)}},
			"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{
				"name": "command_risk_assessment", "strict": true, "schema": schema}}}
	}
	if a.cfg.Stream {
		payload["stream"] = true
	}
	return json.Marshal(payload)
}

func (a *Assessor) endpoint() string {
	base := strings.TrimRight(a.cfg.BaseURL, "/")
	if a.cfg.API == "responses" {
		return base + "/responses"
	}
	return base + "/chat/completions"
}

// ask returns the model's verdict and the call's status.
func (a *Assessor) ask(ctx context.Context, req *assessor.Request, budget time.Duration) (*assessor.Verdict, string) {
	payload, err := a.Payload(req)
	if err != nil {
		return nil, StatusModelError
	}
	key := cacheKey(a.endpoint(), payload)
	if v := a.cached(key); v != nil {
		return v, StatusSuccess
	}
	if budget <= 0 {
		return nil, StatusTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	hreq, err := http.NewRequestWithContext(cctx, http.MethodPost, a.endpoint(), bytes.NewReader(payload))
	if err != nil {
		return nil, StatusModelError
	}
	hreq.Header.Set("Content-Type", "application/json")
	if a.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+a.cfg.APIKey)
		hreq.Header.Set("api-key", a.cfg.APIKey) // Azure
	}
	resp, err := a.cfg.Client.Do(hreq)
	if err != nil {
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return nil, StatusTimeout
		}
		return nil, StatusModelError
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, StatusModelError
	}
	text, err := a.readText(resp.Body)
	if err != nil {
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return nil, StatusTimeout
		}
		return nil, StatusParseError
	}
	if strings.TrimSpace(text) == "" {
		return nil, StatusNoOutput
	}
	v, err := parseVerdict(text)
	if err != nil {
		return nil, StatusParseError
	}
	a.store(key, text)
	return v, StatusSuccess
}

// readText extracts the output text from a streamed or whole response of
// either API.
func (a *Assessor) readText(r io.Reader) (string, error) {
	body, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return "", err
	}
	if a.cfg.Stream || bytes.HasPrefix(bytes.TrimSpace(body), []byte("data:")) {
		return streamText(body)
	}
	var whole struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
				Refusal string `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
		OutputText string `json:"output_text"`
		Output     []struct {
			Type    string `json:"type"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"output"`
	}
	if err := json.Unmarshal(body, &whole); err != nil {
		return "", err
	}
	if len(whole.Choices) > 0 {
		return whole.Choices[0].Message.Content, nil
	}
	if whole.OutputText != "" {
		return whole.OutputText, nil
	}
	var sb strings.Builder
	for _, o := range whole.Output {
		for _, c := range o.Content {
			if c.Type == "output_text" {
				sb.WriteString(c.Text)
			}
		}
	}
	return sb.String(), nil
}

// streamText joins the text deltas of a server-sent event stream.
func streamText(body []byte) (string, error) {
	var sb strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		data, ok := strings.CutPrefix(line, "data:")
		if !ok {
			continue
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			break
		}
		var ev struct {
			Type    string `json:"type"`
			Delta   any    `json:"delta"`
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return "", err
		}
		if len(ev.Choices) > 0 {
			sb.WriteString(ev.Choices[0].Delta.Content)
		}
		if ev.Type == "response.output_text.delta" {
			if s, ok := ev.Delta.(string); ok {
				sb.WriteString(s)
			}
		}
	}
	return sb.String(), sc.Err()
}

// parseVerdict checks the model's JSON against the schema: exactly the
// three fields, a description of 1 to 500 characters, a known level and
// known categories.
func parseVerdict(text string) (*assessor.Verdict, error) {
	dec := json.NewDecoder(strings.NewReader(strings.TrimSpace(text)))
	dec.DisallowUnknownFields()
	var out struct {
		Description    *string   `json:"description"`
		RiskLevel      *string   `json:"risk_level"`
		RiskCategories *[]string `json:"risk_categories"`
	}
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	if out.Description == nil || out.RiskLevel == nil || out.RiskCategories == nil {
		return nil, errors.New("missing fields")
	}
	d := strings.TrimSpace(*out.Description)
	if n := utf8.RuneCountInString(d); n < 1 || n > assessor.MaxDescription {
		return nil, errors.New("description length")
	}
	lvl, err := assessor.ParseLevel(*out.RiskLevel)
	if err != nil {
		return nil, err
	}
	v := &assessor.Verdict{Description: d, Level: lvl}
	for _, c := range *out.RiskCategories {
		cat, err := assessor.ParseCategory(c)
		if err != nil {
			return nil, err
		}
		v.Categories = append(v.Categories, cat)
	}
	if err := v.Validate(); err != nil {
		return nil, err
	}
	return v, nil
}

func cacheKey(endpoint string, payload []byte) string {
	h := sha256.New()
	h.Write([]byte(endpoint))
	h.Write([]byte{0})
	h.Write(payload)
	return hex.EncodeToString(h.Sum(nil))
}

// cacheTTL bounds how long an answer is reused.
const cacheTTL = 7 * 24 * time.Hour

func (a *Assessor) cached(key string) *assessor.Verdict {
	if a.cfg.CacheDir == "" {
		return nil
	}
	p := filepath.Join(a.cfg.CacheDir, key+".json")
	fi, err := os.Stat(p)
	if err != nil || time.Since(fi.ModTime()) > cacheTTL {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	v, err := parseVerdict(string(b))
	if err != nil {
		return nil
	}
	return v
}

func (a *Assessor) store(key, text string) {
	if a.cfg.CacheDir == "" {
		return
	}
	if err := os.MkdirAll(a.cfg.CacheDir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(a.cfg.CacheDir, ".entry-*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(text)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), filepath.Join(a.cfg.CacheDir, key+".json")); err != nil {
		os.Remove(tmp.Name())
	}
}
