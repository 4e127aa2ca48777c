package audit

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentWriters writes from many goroutines and many processes at
// once and checks that every record arrives whole.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	const procs, perProc = 4, 50
	var wg sync.WaitGroup
	big := strings.Repeat("x", 8000) // larger than PIPE_BUF, so only the lock keeps it whole
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perProc {
				r := &Record{Time: time.Now(), Session: fmt.Sprint(p), Argv: []string{"echo", big}, Decision: "allow", Action: "run", Reason: fmt.Sprint(i)}
				if err := l.Append(r); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	// A second process writing too.
	cmd := exec.Command(os.Args[0], "-test.run=TestHelperWriter", "-test.count=1")
	cmd.Env = append(os.Environ(), "AUDIT_HELPER_DIR="+dir)
	out, err := cmd.CombinedOutput()
	wg.Wait()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	n := 0
	err = l.Read(context.Background(), false, func(_ []byte, r *Record) error {
		n++
		if len(r.Argv) != 2 || len(r.Argv[1]) != len(big) {
			return fmt.Errorf("record %d damaged", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := procs*perProc + 100; n != want {
		t.Fatalf("read %d records, want %d", n, want)
	}
	fi, _ := os.Stat(l.Path())
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestHelperWriter(t *testing.T) {
	dir := os.Getenv("AUDIT_HELPER_DIR")
	if dir == "" {
		t.Skip("helper for TestConcurrentWriters")
	}
	l, _ := Open(dir)
	for i := range 100 {
		if err := l.Append(&Record{Session: "child", Argv: []string{"echo", strings.Repeat("x", 8000)}, Reason: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFollow(t *testing.T) {
	l, _ := Open(t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := make(chan string, 1)
	go l.Read(ctx, true, func(_ []byte, r *Record) error {
		got <- r.Reason
		cancel()
		return nil
	})
	time.Sleep(300 * time.Millisecond)
	if err := l.Append(&Record{Reason: "later"}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-got:
		if r != "later" {
			t.Fatalf("got %q", r)
		}
	case <-time.After(4 * time.Second):
		t.Fatal("follow did not see the new record")
	}
}
