// Command sentinel keeps AI-assisted changes to a git repository honest:
// attribution trailers, a test ratchet and a guard for agent tool calls.
package main

import "os"

func main() {
	os.Exit(exitCode(run(os.Args, os.Stdin, os.Stdout, os.Stderr, os.Getenv), os.Stderr))
}
