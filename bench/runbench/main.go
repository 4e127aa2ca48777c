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
	var names []string
	var argvs [][]string
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
		names, argvs = append(names, name), append(argvs, argv)
	}
	results := measure(names, argvs, *n, *warm)
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

// measure times every command n times. The runs are interleaved, one of
// each command in turn, so a machine that gets busier or quieter during
// the benchmark shifts every row alike and the rows stay comparable.
func measure(names []string, argvs [][]string, n, warm int) []result {
	results := make([]result, len(names))
	times := make([][]time.Duration, len(names))
	for i, name := range names {
		results[i] = result{name: name, attempts: n}
		for range warm {
			_ = exec.Command(argvs[i][0], argvs[i][1:]...).Run()
		}
	}
	for range n {
		for i, argv := range argvs {
			d, err := runOnce(argv, &results[i])
			times[i] = append(times[i], d)
			if err != nil {
				results[i].failures++
			}
		}
	}
	for i, argv := range argvs {
		r := &results[i]
		ts := times[i]
		sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
		var sum time.Duration
		for _, t := range ts {
			sum += t
		}
		if len(ts) > 0 {
			r.median, r.p90, r.mean = ts[len(ts)/2], ts[len(ts)*9/10], sum/time.Duration(len(ts))
		}
		if kib, ok := cgroupPeak(argv); ok {
			r.peakKiB, r.peakHow = kib, "cgroup peak, whole tree"
		}
	}
	return results
}

// runOnce runs argv once and returns its wall time; it keeps the largest
// process's peak memory in r for when no cgroup can measure the tree.
func runOnce(argv []string, r *result) (time.Duration, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if cmd.ProcessState == nil {
		return d, err // it did not start; counted as a failure
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > r.peakKiB {
		r.peakKiB, r.peakHow = ru.Maxrss, "largest process"
	}
	return d, err
}
