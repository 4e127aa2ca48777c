package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkJudge times airlock judge in process: everything but the
// process start (see bench/shell.sh for the whole cost in a shell).
func BenchmarkJudge(b *testing.B) {
	dir := b.TempDir()
	run := filepath.Join(dir, "run")
	os.MkdirAll(run, 0o700)
	devnull, _ := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	defer devnull.Close()
	env := []string{"HOME=" + dir, "XDG_RUNTIME_DIR=" + run, "PATH=/usr/bin:/bin"}
	stdio := Stdio{In: devnull, Out: devnull, Err: devnull}
	b.ResetTimer()
	for range b.N {
		if code := Main(context.Background(), []string{"judge", "--shell", "zsh", "--mode", "guard", "--", "ls -la"}, stdio, env); code != 0 {
			b.Fatalf("judge: %d", code)
		}
	}
}
