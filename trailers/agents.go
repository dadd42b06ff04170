package trailers

import (
	"regexp"
	"strings"
)

// Marker is an environment variable that a coding agent sets in the shells
// it runs commands in.
type Marker struct {
	// Var is the variable's name.
	Var string
	// Value, when set, is the value the variable must have (compared
	// without regard to case); empty means any non-empty value.
	Value string
}

// Agent describes one coding agent: how to tell that it is running, the
// identities it commits under, and the name it goes by in Assisted-by.
type Agent struct {
	// ID is the short, lower-case name used in configuration and on the
	// command line ("claude").
	ID string
	// Name is the name written in Assisted-by; it has no spaces, because
	// checkpatch wants `^\S+:\S+`.
	Name string
	// Product is the agent's full name, for people.
	Product string
	// Aliases are other names by which AI_AGENT, AGENT or SENTINEL_AGENT
	// may refer to the agent.
	Aliases []string
	// Markers are the environment variables that show the agent is running.
	Markers []Marker
	// ModelVars are environment variables through which the agent exposes
	// the model it runs, in order of preference.
	ModelVars []string
	// Emails are the commit e-mail addresses the agent uses, lower-case.
	Emails []string
	// Logins are GitHub logins (bots and apps) the agent commits as; they
	// match the name of an identity and the local part of GitHub's
	// no-reply address (`<id>+<login>@users.noreply.github.com`).
	Logins []string
	// NameSuffixes mark an identity whose name ends so ("Jane (aider)").
	NameSuffixes []string
	// Footers match lines the agent appends to commit messages.
	Footers []*regexp.Regexp
}

// Known is the table of the coding agents sentinel recognises.
var Known = []*Agent{
	{
		ID: "claude", Name: "Claude", Product: "Claude Code",
		Aliases:   []string{"claude-code", "claudecode"},
		Markers:   []Marker{{Var: "CLAUDECODE", Value: "1"}, {Var: "CLAUDE_CODE_ENTRYPOINT"}},
		ModelVars: []string{"ANTHROPIC_MODEL"},
		Emails:    []string{"noreply@anthropic.com"},
		Logins:    []string{"claude[bot]"},
		Footers: []*regexp.Regexp{
			regexp.MustCompile(`^(🤖 )?Generated with \[?Claude Code\]?`),
		},
	},
	{
		ID: "cursor", Name: "Cursor", Product: "Cursor",
		Aliases: []string{"cursor-agent"},
		Markers: []Marker{{Var: "CURSOR_AGENT", Value: "1"}},
		Emails:  []string{"cursoragent@cursor.com"},
		Logins:  []string{"cursor[bot]"},
		Footers: []*regexp.Regexp{regexp.MustCompile(`^Made with \[?Cursor\]?`)},
	},
	{
		ID: "gemini", Name: "Gemini", Product: "Gemini CLI",
		Aliases:   []string{"gemini-cli"},
		Markers:   []Marker{{Var: "GEMINI_CLI", Value: "1"}},
		ModelVars: []string{"GEMINI_MODEL"},
		Logins:    []string{"gemini-code-assist[bot]", "google-gemini[bot]"},
		Footers:   []*regexp.Regexp{regexp.MustCompile(`^(🤖 )?Generated (with|by) \[?Gemini( CLI)?\]?`)},
	},
	{
		ID: "codex", Name: "Codex", Product: "Codex CLI",
		Aliases: []string{"codex-cli", "openai-codex"},
		Markers: []Marker{{Var: "CODEX_SANDBOX"}, {Var: "CODEX_THREAD_ID"}},
		Emails:  []string{"noreply@openai.com", "codex@openai.com"},
		Logins:  []string{"chatgpt-codex-connector[bot]"},
		Footers: []*regexp.Regexp{regexp.MustCompile(`^(🤖 )?Generated (with|by) \[?Codex\]?`)},
	},
	{
		ID: "opencode", Name: "OpenCode", Product: "OpenCode",
		Markers: []Marker{{Var: "OPENCODE", Value: "1"}},
		Emails:  []string{"noreply@opencode.ai"},
		Logins:  []string{"opencode-agent[bot]"},
		Footers: []*regexp.Regexp{regexp.MustCompile(`^(🤖 )?Generated with \[?opencode\]?`)},
	},
	{
		ID: "amp", Name: "Amp", Product: "Amp",
		Markers: []Marker{{Var: "AMP_CURRENT_THREAD_ID"}, {Var: "AGENT", Value: "amp"}},
		Emails:  []string{"amp@ampcode.com"},
		Footers: []*regexp.Regexp{regexp.MustCompile(`^Amp-Thread(-ID)?: `)},
	},
	{
		ID: "aider", Name: "Aider", Product: "Aider",
		Emails:       []string{"aider@aider.chat", "noreply@aider.chat"},
		NameSuffixes: []string{"(aider)"},
	},
	{
		ID: "copilot", Name: "Copilot", Product: "GitHub Copilot",
		Aliases: []string{"github-copilot", "copilot-cli"},
		Emails:  []string{"copilot@github.com"},
		Logins:  []string{"copilot", "copilot-swe-agent[bot]", "copilot-swe-agent"},
	},
	{
		ID: "devin", Name: "Devin", Product: "Devin",
		Logins: []string{"devin-ai-integration[bot]"},
	},
	{
		ID: "jules", Name: "Jules", Product: "Jules",
		Logins: []string{"google-labs-jules[bot]"},
	},
}

// Lookup finds a known agent by ID, alias or Assisted-by name, ignoring case.
func Lookup(name string) *Agent {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, a := range Known {
		if a.ID == name || strings.ToLower(a.Name) == name || strings.ToLower(a.Product) == name {
			return a
		}
		for _, al := range a.Aliases {
			if al == name {
				return a
			}
		}
	}
	return nil
}

// MatchIdentity returns the agent that an identity ("Name <email>") belongs
// to, or nil for a person.
func MatchIdentity(ident string) *Agent {
	name, email := splitIdent(ident)
	lname, lemail := strings.ToLower(name), strings.ToLower(email)
	local := lemail
	if i := strings.LastIndexByte(lemail, '@'); i >= 0 {
		local = lemail[:i]
		if strings.HasSuffix(lemail, "@users.noreply.github.com") {
			// GitHub's no-reply address is <id>+<login>@users.noreply.github.com.
			if j := strings.IndexByte(local, '+'); j >= 0 {
				local = local[j+1:]
			}
		} else {
			local = ""
		}
	}
	for _, a := range Known {
		for _, e := range a.Emails {
			if lemail == e {
				return a
			}
		}
		for _, l := range a.Logins {
			if lname == l || local == l {
				return a
			}
		}
		for _, s := range a.NameSuffixes {
			if strings.HasSuffix(lname, s) {
				return a
			}
		}
	}
	return nil
}

// splitIdent splits "Name <email>" as git writes identities; a bare address
// is an e-mail, anything else a name.
func splitIdent(ident string) (name, email string) {
	ident = strings.TrimSpace(ident)
	if i := strings.LastIndexByte(ident, '<'); i >= 0 {
		if j := strings.IndexByte(ident[i:], '>'); j > 0 {
			return strings.TrimSpace(ident[:i]), strings.TrimSpace(ident[i+1 : i+j])
		}
	}
	if strings.Contains(ident, "@") && !strings.ContainsAny(ident, " \t") {
		return "", ident
	}
	return ident, ""
}

// MatchFooter returns the agent whose footer line this is, or nil.
func MatchFooter(line string) *Agent {
	line = strings.TrimSpace(line)
	for _, a := range Known {
		for _, re := range a.Footers {
			if re.MatchString(line) {
				return a
			}
		}
	}
	return nil
}
