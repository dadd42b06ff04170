package guard

import (
	"slices"
	"strings"

	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// nativePrograms are programs that PowerShell and cmd.exe run as
// themselves, with the same words a POSIX shell would pass, when the
// command line holds nothing those shells read differently. Cmdlets and
// aliases (Remove-Item, rm, del, curl) are not among them: the rules know
// them by their POSIX meaning, which is not theirs.
var nativePrograms = []string{"git", "go", "gofmt", "npm", "npx", "pnpm", "yarn", "node", "deno", "bun",
	"python", "python3", "py", "pip", "pip3", "uv", "poetry", "pytest", "cargo", "rustc", "rustup",
	"make", "cmake", "dotnet", "msbuild", "mvn", "gradle", "java", "javac", "tsc", "ruby", "bundle",
	"gem", "php", "composer", "terraform", "kubectl", "helm", "docker", "gh"}

// plainCommand reports a command line that every shell splits the same
// way: one call of a known native program, with words of letters, digits
// and . _ / : = + - only. Quotes, $, backticks, backslashes, globs, ~, @,
// commas, separators and redirections each mean something else in
// PowerShell or cmd.exe, so a line that holds one is not plain.
func plainCommand(src string) bool {
	src = strings.TrimSpace(src)
	if src == "" {
		return false
	}
	for _, r := range src {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune(" ._/:=+-", r):
		default:
			return false
		}
	}
	return slices.Contains(nativePrograms, strings.Fields(src)[0])
}

// EvaluateNonPOSIX decides on a command run by a shell whose syntax is not
// POSIX (PowerShell, cmd.exe). A plain call of a known program is read by
// the POSIX rules, since every shell passes it the same words; anything
// else is a call the guard cannot read, which a person decides (or a
// configured bash rule that matches the whole line).
func EvaluateNonPOSIX(shell, src string, e *pathguard.Env, p *policy.Policy) *Decision {
	if plainCommand(src) {
		return EvaluateCommand(src, e, p)
	}
	d := &Decision{}
	line := strings.TrimSpace(src)
	defer tighten(d, p, "bash", line, line)
	if v, rule, ok := p.Match("bash", line); ok {
		if v != verdict.Allow {
			d.Add(configFinding(v, rule, line))
		}
		return d
	}
	name := map[string]string{"powershell": "PowerShell", "cmd": "cmd.exe"}[shell]
	if name == "" {
		name = shell
	}
	d.Add(verdict.Finding{RuleID: "shell.nonposix", Severity: verdict.High, Verdict: e.Undecided(), Command: line,
		Reason: verdict.High.Reason("shell.nonposix", "a "+name+" command, which the guard reads only when it is a plain call of a known program", "run it with the POSIX shell tool, or as a plain call")})
	return d
}
