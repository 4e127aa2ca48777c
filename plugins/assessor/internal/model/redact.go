package model

import "regexp"

// redactions replace secrets with [REDACTED], keeping what shows their
// kind (the header name, the option, the parameter name).
var redactions = []struct {
	re   *regexp.Regexp
	repl string
}{
	// Authorization and similar headers.
	{regexp.MustCompile(`(?i)((?:authorization|proxy-authorization|x-api-key|api-key|x-auth-token|cookie|private-token)\s*:\s*)(?:(?:bearer|basic|token)\s+)?[^'"\s]+`), "${1}[REDACTED]"},
	// user:password@ in URLs.
	{regexp.MustCompile(`(://[^/\s:@'"]+:)[^@/\s'"]+@`), "${1}[REDACTED]@"},
	// Secrets in URL query parameters.
	{regexp.MustCompile(`(?i)([?&](?:access_token|token|api_key|apikey|key|secret|password|passwd|pwd|sig|signature|auth|client_secret|x-amz-signature|x-amz-credential)=)[^&\s'"#]+`), "${1}[REDACTED]"},
	// Options that take a secret: --password x, --token=x, -p x (mysql style -pSECRET).
	{regexp.MustCompile(`(?i)(--?(?:password|passwd|pass|token|secret|api-key|apikey|access-key|secret-key|client-secret|auth-token|private-key)(?:=|\s+))(?:'[^']*'|"[^"]*"|[^\s'"]+)`), "${1}[REDACTED]"},
	{regexp.MustCompile(`(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^|;&]*\s-p)([^\s'"]+)`), "${1}[REDACTED]"},
	// curl -u user:password.
	{regexp.MustCompile(`((?:^|\s)(?:-u|--user)\s+[^:\s'"]+:)[^\s'"]+`), "${1}[REDACTED]"},
	// Assignments to secret-looking variables.
	{regexp.MustCompile(`(?i)\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*=)(?:'[^']*'|"[^"]*"|[^\s'"]+)`), "${1}[REDACTED]"},
	// Well-known token shapes.
	{regexp.MustCompile(`\b(?:sk-(?:proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,})\b`), "[REDACTED]"},
	// JSON web tokens.
	{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b`), "[REDACTED]"},
	// PEM private keys.
	{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`), "[REDACTED PRIVATE KEY]"},
}

// Redact replaces secrets in a command line with [REDACTED].
func Redact(s string) string {
	for _, r := range redactions {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return s
}
