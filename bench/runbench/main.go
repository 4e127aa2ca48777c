// Command runbench times whole commands over many runs and prints a table
// of median, p90 and mean wall time, and peak memory of each command's
// whole process tree (from a cgroup v2 memory.peak when it can make one,
// else the largest single process). It is the driver behind bench/exec.sh.
//
// Usage: runbench -n 200 NAME=COMMAND... (COMMAND is split on spaces,
// except inside single quotes).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

type result struct {
	name               string
	median, p90, mean  time.Duration
	peakKiB            int64
	peakHow            string
	failures, attempts int
}

func main() {
	n := flag.Int("n", 200, "runs per command")
	warm := flag.Int("warmup", 10, "untimed runs first")
	flag.Parse()
	var results []result
	for _, arg := range flag.Args() {
		name, cmdline, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "runbench: %q is not NAME=COMMAND\n", arg)
			os.Exit(2)
		}
		argv, err := splitArgs(cmdline)
		if err != nil {
			fmt.Fprintf(os.Stderr, "runbench: %s: %v\n", name, err)
			os.Exit(2)
		}
		results = append(results, measure(name, argv, *n, *warm))
	}
	fmt.Printf("%-28s %10s %10s %10s %12s  %s\n", "command", "median", "p90", "mean", "peak mem", "failures")
	for _, r := range results {
		fmt.Printf("%-28s %10s %10s %10s %9.1f MiB  %d/%d (%s)\n", r.name, ms(r.median), ms(r.p90), ms(r.mean), float64(r.peakKiB)/1024, r.failures, r.attempts, r.peakHow)
	}
}

// splitArgs splits a command line on blanks; a single-quoted part is taken
// as it is, quotes removed, as a shell would.
func splitArgs(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in, quoted, inQuote := false, false, false
	for _, r := range line {
		switch {
		case r == '\'':
			inQuote, in, quoted = !inQuote, true, true
		case !inQuote && (r == ' ' || r == '\t'):
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in, quoted = false, false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quote in %q", line)
	}
	if in || quoted {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	return out, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func measure(name string, argv []string, n, warm int) result {
	r := result{name: name, attempts: n}
	for range warm {
		_ = exec.Command(argv[0], argv[1:]...).Run()
	}
	var times []time.Duration
	for range n {
		cmd := exec.Command(argv[0], argv[1:]...)
		start := time.Now()
		err := cmd.Run()
		times = append(times, time.Since(start))
		if err != nil {
			r.failures++
		}
		if cmd.ProcessState == nil {
			continue // it did not start; counted as a failure
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > r.peakKiB {
			r.peakKiB, r.peakHow = ru.Maxrss, "largest process"
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	r.median, r.p90, r.mean = times[len(times)/2], times[len(times)*9/10], sum/time.Duration(len(times))
	if kib, ok := cgroupPeak(argv); ok {
		r.peakKiB, r.peakHow = kib, "cgroup peak, whole tree"
	}
	return r
}
