package trailers

import (
	"regexp"
	"strings"
	"sync"
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
	// Footers are the patterns (regexp syntax) of lines the agent appends
	// to commit messages; they are compiled on first use, as only the
	// commit-msg hook reads them.
	Footers []string
	// Programs are the names the agent's program runs under, matched
	// against the executable, the short name and argv[0] of each parent
	// process, and against the script an interpreter runs.
	Programs []string
	// Paths are fragments of the path of the agent's program or script,
	// for an agent that runs as a script of node or python, or from a
	// versioned file: "/@anthropic-ai/claude-code/".
	Paths []string
	// ModelFlags are the options of its command line that choose the
	// model ("--model", and "-m" where the agent reads it so).
	ModelFlags []string
	// ConfigFlags are options that set a configuration key, as Codex's
	// `-c model=o3`; only the key "model" is read.
	ConfigFlags []string
	// ProfileFlags choose a profile of its configuration file, whose
	// [profiles.NAME] model wins over the top-level one.
	ProfileFlags []string
	// ModelFiles are the settings files that hold its default model, the
	// most binding first.
	ModelFiles []ModelFile
}

// ModelFile is a settings file in which an agent keeps the model it runs.
type ModelFile struct {
	// Project places the file in the project (the agent's working
	// directory) rather than under the home directory.
	Project bool
	// DirVar names an environment variable that, when set, replaces
	// Dir (CLAUDE_CONFIG_DIR, CODEX_HOME).
	DirVar string
	// Dir is the directory below the home directory or the project.
	Dir string
	// Name is the file below Dir; its extension says how it is read:
	// .json (comments allowed), .toml, or .yml and .yaml (top-level keys).
	Name string
	// Keys are dotted paths to the model in the file, tried in order.
	Keys []string
}

// Known is the table of the coding agents sentinel recognises.
var Known = []*Agent{
	{
		ID: "claude", Name: "Claude", Product: "Claude Code",
		Aliases:    []string{"claude-code", "claudecode"},
		Markers:    []Marker{{Var: "CLAUDECODE", Value: "1"}, {Var: "CLAUDE_CODE_ENTRYPOINT"}},
		ModelVars:  []string{"ANTHROPIC_MODEL"},
		Emails:     []string{"noreply@anthropic.com"},
		Logins:     []string{"claude[bot]"},
		Footers:    []string{`^(🤖 )?Generated with \[?Claude Code\]?`},
		Programs:   []string{"claude"},
		Paths:      []string{"/@anthropic-ai/claude-code/", "/share/claude/versions/"},
		ModelFlags: []string{"--model"},
		ModelFiles: []ModelFile{
			{Project: true, Dir: ".claude", Name: "settings.local.json", Keys: []string{"model"}},
			{Project: true, Dir: ".claude", Name: "settings.json", Keys: []string{"model"}},
			{DirVar: "CLAUDE_CONFIG_DIR", Dir: ".claude", Name: "settings.json", Keys: []string{"model"}},
		},
	},
	{
		ID: "cursor", Name: "Cursor", Product: "Cursor",
		Aliases: []string{"cursor-agent"},
		Markers: []Marker{{Var: "CURSOR_AGENT", Value: "1"}},
		Emails:  []string{"cursoragent@cursor.com"},
		Logins:  []string{"cursor[bot]"},
		Footers: []string{`^Made with \[?Cursor\]?`},
		// The editor itself is not matched: a person's own terminal in it
		// has the same parents as its agent's.
		Programs:   []string{"cursor-agent"},
		Paths:      []string{"/cursor-agent/"},
		ModelFlags: []string{"--model"},
		ModelFiles: []ModelFile{
			{DirVar: "CURSOR_CONFIG_DIR", Dir: ".cursor", Name: "cli-config.json", Keys: []string{"model.modelId"}},
		},
	},
	{
		ID: "gemini", Name: "Gemini", Product: "Gemini CLI",
		Aliases:    []string{"gemini-cli"},
		Markers:    []Marker{{Var: "GEMINI_CLI", Value: "1"}},
		ModelVars:  []string{"GEMINI_MODEL"},
		Logins:     []string{"gemini-code-assist[bot]", "google-gemini[bot]"},
		Footers:    []string{`^(🤖 )?Generated (with|by) \[?Gemini( CLI)?\]?`},
		Programs:   []string{"gemini"},
		Paths:      []string{"/@google/gemini-cli/"},
		ModelFlags: []string{"--model", "-m"},
		ModelFiles: []ModelFile{
			{Project: true, Dir: ".gemini", Name: "settings.json", Keys: []string{"model.name", "model"}},
			{Dir: ".gemini", Name: "settings.json", Keys: []string{"model.name", "model"}},
		},
	},
	{
		ID: "codex", Name: "Codex", Product: "Codex CLI",
		Aliases:      []string{"codex-cli", "openai-codex"},
		Markers:      []Marker{{Var: "CODEX_SANDBOX"}, {Var: "CODEX_THREAD_ID"}},
		Emails:       []string{"noreply@openai.com", "codex@openai.com"},
		Logins:       []string{"chatgpt-codex-connector[bot]"},
		Footers:      []string{`^(🤖 )?Generated (with|by) \[?Codex\]?`},
		Programs:     []string{"codex"},
		Paths:        []string{"/@openai/codex/"},
		ModelFlags:   []string{"--model", "-m"},
		ConfigFlags:  []string{"-c", "--config"},
		ProfileFlags: []string{"--profile", "-p"},
		ModelFiles: []ModelFile{
			{Project: true, Dir: ".codex", Name: "config.toml", Keys: []string{"model"}},
			{DirVar: "CODEX_HOME", Dir: ".codex", Name: "config.toml", Keys: []string{"model"}},
		},
	},
	{
		ID: "opencode", Name: "OpenCode", Product: "OpenCode",
		Markers:    []Marker{{Var: "OPENCODE", Value: "1"}},
		Emails:     []string{"noreply@opencode.ai"},
		Logins:     []string{"opencode-agent[bot]"},
		Footers:    []string{`^(🤖 )?Generated with \[?opencode\]?`},
		Programs:   []string{"opencode"},
		Paths:      []string{"/opencode-ai/"},
		ModelFlags: []string{"--model", "-m"},
		ModelFiles: []ModelFile{
			{Project: true, Name: "opencode.json", Keys: []string{"model"}},
			{Project: true, Name: "opencode.jsonc", Keys: []string{"model"}},
			{DirVar: "XDG_CONFIG_HOME", Dir: ".config", Name: "opencode/opencode.json", Keys: []string{"model"}},
			{DirVar: "XDG_CONFIG_HOME", Dir: ".config", Name: "opencode/opencode.jsonc", Keys: []string{"model"}},
		},
	},
	{
		ID: "amp", Name: "Amp", Product: "Amp",
		Markers: []Marker{{Var: "AMP_CURRENT_THREAD_ID"}, {Var: "AGENT", Value: "amp"}},
		Emails:  []string{"amp@ampcode.com"},
		Footers: []string{`^Amp-Thread(-ID)?: `},
		// Amp chooses its model itself, by mode.
		Programs: []string{"amp"},
		Paths:    []string{"/@sourcegraph/amp/", "/@ampcode/"},
	},
	{
		// Kilo Code's CLI, a fork of OpenCode (@kilocode/cli).
		ID: "kilo", Name: "Kilo", Product: "Kilo Code",
		Programs:   []string{"kilo"},
		Paths:      []string{"/@kilocode/"},
		ModelFlags: []string{"--model", "-m"},
	},
	{
		// Pi's coding agent (@mariozechner/pi-coding-agent).
		ID: "pi", Name: "Pi", Product: "Pi",
		Programs:   []string{"pi"},
		Paths:      []string{"/pi-coding-agent/"},
		ModelFlags: []string{"--model"},
	},
	{
		ID: "aider", Name: "Aider", Product: "Aider",
		Emails:       []string{"aider@aider.chat", "noreply@aider.chat"},
		NameSuffixes: []string{"(aider)"},
		ModelVars:    []string{"AIDER_MODEL"},
		// Aider's -m is --message, not the model.
		Programs:   []string{"aider"},
		Paths:      []string{"/site-packages/aider/"},
		ModelFlags: []string{"--model"},
		ModelFiles: []ModelFile{
			{Project: true, Name: ".aider.conf.yml", Keys: []string{"model"}},
			{Name: ".aider.conf.yml", Keys: []string{"model"}},
		},
	},
	{
		ID: "copilot", Name: "Copilot", Product: "GitHub Copilot",
		Aliases: []string{"github-copilot", "copilot-cli"},
		Emails:  []string{"copilot@github.com"},
		Logins:  []string{"copilot", "copilot-swe-agent[bot]", "copilot-swe-agent"},
		// Copilot CLI; Copilot in an editor is known by its markers only.
		ModelVars:  []string{"COPILOT_MODEL"},
		Programs:   []string{"copilot"},
		Paths:      []string{"/@github/copilot/"},
		ModelFlags: []string{"--model"},
		ModelFiles: []ModelFile{
			{DirVar: "COPILOT_HOME", Dir: ".copilot", Name: "settings.json", Keys: []string{"model"}},
			{DirVar: "COPILOT_HOME", Dir: ".copilot", Name: "config.json", Keys: []string{"model"}},
		},
	},
	{
		ID: "goose", Name: "Goose", Product: "Goose",
		ModelVars:  []string{"GOOSE_MODEL"},
		Programs:   []string{"goose"},
		ModelFlags: []string{"--model"},
		ModelFiles: []ModelFile{
			{DirVar: "XDG_CONFIG_HOME", Dir: ".config", Name: "goose/config.yaml", Keys: []string{"GOOSE_MODEL"}},
		},
	},
	{
		ID: "qwen", Name: "Qwen", Product: "Qwen Code",
		Aliases:    []string{"qwen-code"},
		Programs:   []string{"qwen"},
		Paths:      []string{"/@qwen-code/qwen-code/"},
		ModelFlags: []string{"--model", "-m"},
		ModelFiles: []ModelFile{
			{Project: true, Dir: ".qwen", Name: "settings.json", Keys: []string{"model.name", "model"}},
			{Dir: ".qwen", Name: "settings.json", Keys: []string{"model.name", "model"}},
		},
	},
	{
		ID: "droid", Name: "Droid", Product: "Factory Droid",
		Aliases:    []string{"factory", "factory-droid"},
		Programs:   []string{"droid"},
		ModelFlags: []string{"--model", "-m"},
		ModelFiles: []ModelFile{
			{Project: true, Dir: ".factory", Name: "settings.local.json", Keys: []string{"model"}},
			{Project: true, Dir: ".factory", Name: "settings.json", Keys: []string{"model"}},
			{Dir: ".factory", Name: "settings.local.json", Keys: []string{"model"}},
			{Dir: ".factory", Name: "settings.json", Keys: []string{"model"}},
		},
	},
	{
		ID: "kiro", Name: "Kiro", Product: "Kiro CLI",
		Aliases:    []string{"kiro-cli", "amazon-q"},
		Programs:   []string{"kiro-cli", "kiro-cli-chat", "qchat"},
		ModelFlags: []string{"--model"},
	},
	{
		ID: "cline", Name: "Cline", Product: "Cline",
		Programs: []string{"cline"},
		Paths:    []string{"/node_modules/cline/"},
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
	for i, res := range footerPatterns() {
		for _, re := range res {
			if re.MatchString(line) {
				return Known[i]
			}
		}
	}
	return nil
}

// footerPatterns are the Footers of each of Known, compiled.
var footerPatterns = sync.OnceValue(func() [][]*regexp.Regexp {
	out := make([][]*regexp.Regexp, len(Known))
	for i, a := range Known {
		for _, f := range a.Footers {
			out[i] = append(out[i], regexp.MustCompile(f))
		}
	}
	return out
})
