package main

// completionFlag is the flag urfave/cli reads, last on a command line, as
// a request for the words that may come next; the completion scripts pass
// it.
const completionFlag = "--generate-bash-completion"

// wantsHelp reports an argument list that asks for help or for
// completions, wherever it stands: the front hands such a line to the
// engine, and commands that read their arguments themselves (hook) answer
// it rather than take --help for a file's name.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--help" || a == "-h" || a == completionFlag {
			return true
		}
	}
	return false
}
