//go:build !sentinel_front

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// completionOptions are the arguments of `sentinel completion`.
type completionOptions struct {
	shell string
}

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a completion script for bash, zsh or fish (bash: source <(sentinel completion bash))",
		ArgsUsage: "bash|zsh|fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return &usageError{fmt.Errorf("completion takes one shell: bash, zsh or fish; run `sentinel completion --help`")}
			}
			return runCompletion(c, e, completionOptions{shell: c.Args().First()})
		},
	}
}

// The bash and zsh scripts ask sentinel itself for the words that may
// come next (urfave/cli's hidden completion flag), so they follow the
// commands and flags of the binary installed, never a stale list. A bare
// "--" is asked as "-": urfave/cli completes nothing after a "--", which
// ends the flags.
const bashCompletion = `# bash completion for sentinel: source <(sentinel completion bash)
_sentinel_complete() {
  local cur ask words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  ask="$cur"
  [[ "$ask" == -- ]] && ask=-
  if [[ "$cur" == -* ]]; then
    words=$("${COMP_WORDS[@]:0:$COMP_CWORD}" "$ask" ` + completionFlag + ` 2>/dev/null)
  else
    words=$("${COMP_WORDS[@]:0:$COMP_CWORD}" ` + completionFlag + ` 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  return 0
}
complete -o bashdefault -o default -F _sentinel_complete sentinel
`

const zshCompletion = `#compdef sentinel
# zsh completion for sentinel: source <(sentinel completion zsh), after compinit
_sentinel() {
  local -a opts
  local cur ask
  cur=${words[-1]}
  ask=$cur
  [[ "$ask" == -- ]] && ask=-
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${ask} ` + completionFlag + ` 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ` + completionFlag + ` 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _sentinel sentinel
`

func runCompletion(c *cli.Context, e *env, o completionOptions) error {
	var script string
	switch o.shell {
	case "bash":
		script = bashCompletion
	case "zsh":
		script = zshCompletion
	case "fish":
		s, err := c.App.ToFishCompletion()
		if err != nil {
			return fmt.Errorf("fish completion: %w", err)
		}
		script = dedupeLines(s)
	default:
		return &usageError{fmt.Errorf("completion: no script for %q; sentinel writes bash, zsh and fish; run `sentinel completion bash`", o.shell)}
	}
	_, err := io.WriteString(e.stdout, script)
	return err
}

// dedupeLines drops the repeats of a completion line: urfave/cli writes
// the help and version flags twice once the application is set up.
func dedupeLines(s string) string {
	seen := map[string]bool{}
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "complete ") {
			if seen[l] {
				continue
			}
			seen[l] = true
		}
		b.WriteString(l)
	}
	return b.String()
}
