//go:build !js

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"

	"backoffcalc/app/internal/importcfg"
	"backoffcalc/app/internal/site"
)

const usage = `usage:
  backoffcalc table ...                                print a schedule in the terminal
  backoffcalc serve [-addr 127.0.0.1:8000] [-root .]   serve the page
  backoffcalc static -out DIR [-prefix NAME] [-root .] write the page as a static site
`

// runCommand runs the command line of the native binary and returns the
// process exit code: 2 for a usage error, 1 for a failure.
func runCommand(args []string, stdout, stderr io.Writer) int {
	stderr = terminalText{stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "table":
		return runTable(args[1:], stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "static":
		return runStatic(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "backoffcalc: unknown command %q\n%s", args[0], usage)
	return 2
}

// runServe is `serve [-addr 127.0.0.1:8000] [-root .]`: it serves the page (site.Serve) from
// -root, by default the working directory, which is the repository root under make.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "[-addr HOST:PORT] [-root DIR]", stderr)
	addr := fs.String("addr", "127.0.0.1:8000", "`address` to listen on; the default keeps the page on this machine")
	root := fs.String("root", ".", "`directory` holding web/ (with app.wasm) and wasm_exec.js")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	site.NoteBrotli(*root, stderr, "; serve sends gzip until then")
	fmt.Fprintf(stderr, "backoffcalc serve: %v\n", site.Serve(*root, *addr, stdout))
	return 1
}

// runStatic is `static -out DIR [-prefix NAME] [-root .]`: it writes the page as a static site
// (site.Generate) from -root, as serve reads it.
func runStatic(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("static", "-out DIR [-prefix NAME] [-root DIR]", stderr)
	out := fs.String("out", "", "`directory` to write the site into; must be missing or empty")
	prefix := fs.String("prefix", "", "serve the site at /`NAME`/ (or /a/b/) instead of /")
	root := fs.String("root", ".", "`directory` holding web/ (with app.wasm) and wasm_exec.js")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *out == "" {
		fmt.Fprintln(stderr, "static: -out is required")
		fs.Usage()
		return 2
	}
	if *prefix != "" && !validPrefix.MatchString(*prefix) {
		fmt.Fprintf(stderr, "static: -prefix %q: must be path segments (a, or a/b) of letters, digits, '.', '_' or '-', none starting with '.'\n", *prefix)
		fs.Usage()
		return 2
	}
	site.NoteBrotli(*root, stderr, "")
	if err := site.Generate(*root, *out, *prefix); err != nil {
		fmt.Fprintf(stderr, "backoffcalc static: %v\n", err)
		return 1
	}
	return 0
}

// validPrefix is one path segment or more (a project's pages under a site's folder: docs/tool),
// none starting with a dot: no "." or "..", no hidden folder.
var validPrefix = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$`)

// parseFlags parses the flags of a command that takes no other argument. When
// ok is false the command must return code: 0 after -h, 2 after a usage error,
// with the message already on the flag set's output.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return 2, false
	}
	return 0, true
}

// newFlagSet returns a flag set whose usage message names the command.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: backoffcalc %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// terminalText writes the commands' messages to a terminal with what it would not show as it is
// escaped as Go quotes it: a control character (an escape sequence's ESC, which can set a
// terminal's title or clear it; a BEL, a CR), a format character (U+202E turns the text after it
// around), a byte that is not UTF-8. Lines and tabs stay. A message quotes the person's text it
// names, but not every one can: a file's name in the OS's error, an unknown flag in the flag
// package's, an address in the listener's.
type terminalText struct{ w io.Writer }

func (t terminalText) Write(b []byte) (int, error) {
	s := string(b)
	e := importcfg.Printable(s, true)
	if e == s {
		return t.w.Write(b)
	}
	if _, err := io.WriteString(t.w, e); err != nil {
		return 0, err
	}
	return len(b), nil
}
