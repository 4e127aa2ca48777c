package approval

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlock-dev/airlock/internal/term"
)

// Assessment is the risk assessment a prompt shows.
type Assessment struct {
	// Level is LOW, MEDIUM or HIGH; empty when there is no assessment.
	Level       string
	Description string
	Categories  []string
	// Note says why there is no assessment, when there is none.
	Note string
}

// Question is what the prompt shows.
type Question struct {
	// Command is the command, shell-quoted.
	Command string
	// Why lists the reasons for asking, one per line.
	Why        []string
	Assessment Assessment
	// Escalations are the grants offered, smallest first; "y" picks the
	// first, digits pick any.
	Escalations []string
	// Prefix is the command prefix "p" would always allow; empty when not
	// offered.
	Prefix string
	// ProjectRules offers "P": the same rule in the project's rules.
	ProjectRules bool
	// Timeout is how long to wait; after it the answer is no.
	Timeout time.Duration
	// Color enables colours (off with NO_COLOR or a dumb terminal).
	Color bool
	// Width is the terminal width; 80 when unknown.
	Width int
}

// Choice is the kind of answer.
type Choice int

// Answers.
const (
	No Choice = iota
	Once
	Session
	Always
	// AlwaysProject is Always, with the rule saved in the project's rules.
	AlwaysProject
)

// String names the choice for the audit log.
func (c Choice) String() string {
	switch c {
	case Once:
		return "yes"
	case Session:
		return "session"
	case Always:
		return "always"
	case AlwaysProject:
		return "always (project)"
	}
	return "no"
}

// Answer is the user's answer.
type Answer struct {
	Choice Choice
	// Escalation is the index of the chosen escalation, or -1.
	Escalation int
	// How says how a "no" came about: "n", "esc", "ctrl-c", "enter",
	// "timeout", "eof".
	How string
}

// Render returns the prompt's text, with "\r\n" line ends (the terminal
// is in raw mode while it shows).
func Render(q Question) string {
	width := q.Width
	if width <= 0 || width > 200 {
		width = 80
	}
	var b strings.Builder
	line := func(prefix, text string) {
		for i, l := range wrap(text, width-visibleLen(prefix)) {
			if i > 0 {
				prefix = strings.Repeat(" ", visibleLen(prefix))
			}
			b.WriteString(prefix + l + "\r\n")
		}
	}
	bold := func(s string) string { return paint(q.Color, "1", s) }
	line(bold("airlock")+" ", bold(q.Command))
	for _, w := range q.Why {
		line("  why:  ", w)
	}
	switch a := q.Assessment; {
	case a.Level != "":
		text := a.Description
		if len(a.Categories) > 0 {
			text += " [" + strings.Join(a.Categories, ", ") + "]"
		}
		line("  risk: ", levelColor(q.Color, a.Level)+" "+text)
	case a.Note != "":
		line("  risk: ", a.Note)
	}
	for i, e := range q.Escalations {
		key := fmt.Sprint(i + 1)
		if i == 0 {
			key = "y/1"
		}
		line(fmt.Sprintf("  %-4s ", key), e)
	}
	keys := []string{}
	if len(q.Escalations) == 0 {
		keys = append(keys, "y yes once")
	}
	keys = append(keys, "a yes for this session")
	if q.Prefix != "" {
		keys = append(keys, "p always allow `"+q.Prefix+"`")
		if q.ProjectRules {
			keys = append(keys, "P … in this project")
		}
	}
	keys = append(keys, "n no")
	line("  ", strings.Join(keys, " · "))
	b.WriteString("  choice? ")
	return b.String()
}

func paint(on bool, code, s string) string {
	if !on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func levelColor(on bool, level string) string {
	switch level {
	case "HIGH":
		return paint(on, "1;31", level)
	case "MEDIUM":
		return paint(on, "1;33", level)
	}
	return paint(on, "1;32", level)
}

// wrap breaks text into lines of at most width runes, at spaces where it
// can. Escape sequences count as zero width.
func wrap(text string, width int) []string {
	if width < 20 {
		width = 20
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line, n := "", 0
		for _, word := range strings.Split(para, " ") {
			w := visibleLen(word)
			for w > width {
				// A word longer than a line is cut.
				if n > 0 {
					out, line, n = append(out, line), "", 0
				}
				cut := cutVisible(word, width)
				out = append(out, word[:cut])
				word = word[cut:]
				w = visibleLen(word)
			}
			switch {
			case n == 0:
				line, n = word, w
			case n+1+w <= width:
				line, n = line+" "+word, n+1+w
			default:
				out, line, n = append(out, line), word, w
			}
		}
		out = append(out, line)
	}
	return out
}

// visibleRunes calls fn with the byte offset of each rune that shows on
// the screen, skipping colour escape sequences; fn returns false to stop.
func visibleRunes(s string, fn func(offset int) bool) {
	esc := false
	for i, r := range s {
		switch {
		case r == '\x1b':
			esc = true
		case esc:
			esc = r != 'm'
		default:
			if !fn(i) {
				return
			}
		}
	}
}

func visibleLen(s string) int {
	n := 0
	visibleRunes(s, func(int) bool { n++; return true })
	return n
}

// cutVisible returns the byte offset after width visible runes.
func cutVisible(s string, width int) int {
	n, cut := 0, len(s)
	visibleRunes(s, func(i int) bool {
		if n == width {
			cut = i
			return false
		}
		n++
		return true
	})
	return cut
}

// Decode maps one key to an answer; ok is false for keys that mean
// nothing here (the prompt keeps waiting).
func Decode(key byte, q Question) (Answer, bool) {
	switch key {
	case 'y', 'Y':
		return Answer{Choice: Once, Escalation: firstEscalation(q)}, true
	case 'a', 'A':
		return Answer{Choice: Session, Escalation: firstEscalation(q)}, true
	case 'p':
		if q.Prefix == "" {
			return Answer{}, false
		}
		return Answer{Choice: Always, Escalation: firstEscalation(q)}, true
	case 'P':
		if q.Prefix == "" || !q.ProjectRules {
			return Answer{}, false
		}
		return Answer{Choice: AlwaysProject, Escalation: firstEscalation(q)}, true
	case 'n', 'N':
		return Answer{Choice: No, Escalation: -1, How: "n"}, true
	case 0x1b:
		return Answer{Choice: No, Escalation: -1, How: "esc"}, true
	case 0x03:
		return Answer{Choice: No, Escalation: -1, How: "ctrl-c"}, true
	case 0x04:
		return Answer{Choice: No, Escalation: -1, How: "eof"}, true
	case '\r', '\n':
		return Answer{Choice: No, Escalation: -1, How: "enter"}, true
	}
	if key >= '1' && key <= '9' && int(key-'1') < len(q.Escalations) {
		return Answer{Choice: Once, Escalation: int(key - '1')}, true
	}
	return Answer{}, false
}

func firstEscalation(q Question) int {
	if len(q.Escalations) > 0 {
		return 0
	}
	return -1
}

// ErrNoTerminal means there is no terminal to ask on.
var ErrNoTerminal = errors.New("no terminal to ask on")

// Ask shows the question on tty and waits for one key. It discards keys
// typed before the prompt appeared, and restores the terminal exactly.
func Ask(tty *os.File, q Question) (Answer, error) {
	if tty == nil || !term.IsTerminal(tty) {
		return Answer{Escalation: -1}, ErrNoTerminal
	}
	st, err := term.MakeRaw(tty)
	if err != nil {
		return Answer{Escalation: -1}, fmt.Errorf("prompt: %w", err)
	}
	defer st.Restore()
	// Typed-ahead keys never count.
	_ = term.FlushInput(int(tty.Fd()))
	if q.Width == 0 {
		if cols, _, err := term.Size(tty); err == nil {
			q.Width = cols
		}
	}
	if _, err := tty.WriteString("\r\n" + Render(q)); err != nil {
		return Answer{Escalation: -1}, fmt.Errorf("prompt: %w", err)
	}
	deadline := time.Now().Add(q.Timeout)
	buf := make([]byte, 64)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			tty.WriteString("no (timed out)\r\n")
			return Answer{Choice: No, Escalation: -1, How: "timeout"}, nil
		}
		fds := []unix.PollFd{{Fd: int32(tty.Fd()), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return Answer{Escalation: -1}, fmt.Errorf("prompt: %w", err)
		}
		if n == 0 {
			continue
		}
		if fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0 && fds[0].Revents&unix.POLLIN == 0 {
			return Answer{Choice: No, Escalation: -1, How: "eof"}, nil
		}
		r, err := unix.Read(int(tty.Fd()), buf)
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
			continue
		}
		if err != nil || r == 0 {
			return Answer{Choice: No, Escalation: -1, How: "eof"}, nil
		}
		// An escape sequence (arrow keys and the like) starts with Esc:
		// only its first byte counts, and Esc means no.
		if ans, ok := Decode(buf[0], q); ok {
			tty.WriteString(echo(ans, q) + "\r\n")
			return ans, nil
		}
	}
}

func echo(a Answer, q Question) string {
	switch a.Choice {
	case No:
		return "no"
	case Session:
		return "yes, for this session"
	case Always:
		return "yes, always for `" + q.Prefix + "`"
	case AlwaysProject:
		return "yes, always for `" + q.Prefix + "` in this project"
	}
	if a.Escalation >= 0 {
		return "yes: " + q.Escalations[a.Escalation]
	}
	return "yes"
}
