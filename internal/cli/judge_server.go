package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/sdk/shellparse"
)

// The judge server answers a shell's "may this line run?" without a new
// process per line. The shell creates two FIFOs in a private directory and
// opens both read-write (so neither side ever blocks on open, and a dead
// server never raises SIGPIPE in the shell), then starts
// `airlock judge --serve DIR` in the background. The server opens the
// FIFOs, removes them, and answers requests until the shell goes away.
//
// A request is NUL-terminated fields: the shell's working directory, then
// the arguments of `airlock judge`, then a field holding only "\x01". The
// answer is one line of three fields separated by "\x1f" (not a tab: a
// shell's read would fold empty tab-separated fields): the judge's status,
// a pre-approval token (empty), and a message for the shell to print. The server
// never asks: it answers judgeAsk and the shell runs a one-shot judge in
// the foreground, which can read the terminal.

// requestEnd is the field that ends a request.
const requestEnd = "\x01"

func runJudgeServer(ctx context.Context, dir string, e env) error {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() || info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("judge --serve: %s is not a private directory", dir)
	}
	in, err := os.OpenFile(filepath.Join(dir, "q"), os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("judge --serve: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(filepath.Join(dir, "a"), os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("judge --serve: %w", err)
	}
	defer out.Close()
	os.Remove(filepath.Join(dir, "q"))
	os.Remove(filepath.Join(dir, "a"))
	os.Remove(dir)
	// The shell reads this first, and checks the pid before each request
	// so a server that died is noticed at once.
	if _, err := fmt.Fprintf(out, "ready\x1f%d\x1f\n", os.Getpid()); err != nil {
		return err
	}
	return serveJudge(ctx, in, out, e)
}

// serveJudge answers requests from r on w until r ends.
func serveJudge(ctx context.Context, r io.Reader, w io.Writer, e env) error {
	rd := bufio.NewReaderSize(r, 64<<10)
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer devnull.Close()
	stdio := Stdio{In: devnull, Out: devnull, Err: devnull}
	for {
		var fields []string
		for {
			f, err := rd.ReadString(0)
			if err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			f = strings.TrimSuffix(f, "\x00")
			if f == requestEnd {
				break
			}
			fields = append(fields, f)
		}
		code, token, msg := judgeRequest(ctx, fields, stdio, e)
		msg = strings.NewReplacer("\n", " ", "\x1f", " ").Replace(msg)
		if _, err := fmt.Fprintf(w, "%d\x1f%s\x1f%s\n", code, token, msg); err != nil {
			return err
		}
	}
}

func judgeRequest(ctx context.Context, fields []string, stdio Stdio, e env) (code int, token, msg string) {
	if len(fields) < 2 {
		return ExitError, "", "airlock: the shell sent a malformed request; run 'airlock off' if this repeats"
	}
	f, line, err := parseJudgeArgs(fields[1:])
	if err != nil {
		return ExitError, "", "airlock: " + err.Error()
	}
	if shellparse.Incomplete(line) {
		return judgeIncomplete, "", ""
	}
	e.cwd = fields[0]
	f.noPrompt = true
	a, err := newApp(e, nil, nil)
	if err != nil {
		return ExitError, "", "airlock: " + err.Error()
	}
	defer a.close()
	code, err = a.judge(ctx, f, line, stdio)
	if err != nil {
		return ExitError, "", "airlock: " + err.Error()
	}
	return code, "", a.message
}
