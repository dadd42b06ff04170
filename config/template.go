package config

// Template is the configuration `sentinel init` writes: every key, at its
// default, commented out, with what it does.
const Template = `# sentinel's project configuration. Every key is shown at its default.
# Uncomment a key to change it. Reference: docs/configuration.md.

[trailers]
# The Assisted-by value. {agent} is the agent's name (no spaces), {model}
# the model ("unknown" when nobody names it), {tools} the tools below.
# Some projects want a bare value: format = "LLM".
# format = "{agent}:{model}"

# Tools appended to the value, as in the kernel's "AGENT:MODEL [TOOL1] [TOOL2]".
# tools = []

# What a Co-authored-by naming an agent gets while that agent commits:
# "rewrite" (it becomes an Assisted-by in its place) or "refuse" (the commit
# is refused). A person's commit with such a line is refused either way,
# naming the fix: sentinel trailers check --fix FILE.
# agent_coauthor = "rewrite"

# What agent footer lines ("🤖 Generated with [Claude Code](…)", "Made with
# Cursor") get: "keep", "strip" or "refuse".
# footer = "keep"

# The model to record for an agent that does not say which model it runs.
# [trailers.models]
# claude = "claude-opus-4-5"
# codex = "gpt-5-codex"

[coverage]
# Paths never counted, beside vendor/**, node_modules/**, third_party/**
# and **/testdata/**. "dir/**" is everything below dir at the top;
# "**/dir/**" below a dir of that name anywhere.
# exclude = []

# The cache of counts lives in the git dir, or where SENTINEL_CACHE_DIR
# says (a shared directory keeps CI runs and other clones warm). This key
# is read and ignored: the repository does not choose where sentinel
# writes, nor which counts CI trusts.
# cache_dir = ""

# Peaks per part of a monorepo: rows become "scope/language", so growth in
# one part cannot hide a loss in another. A file belongs to the first scope
# whose paths match it; files in no scope keep plain language rows.
# [[coverage.scope]]
# name = "api"
# paths = ["services/api/**"]

[ratchet]
# The pre-commit hook raises a peak that a commit goes above, and stages
# the baseline into that commit, so the peak moves with the commit that
# earned it. With false, "sentinel check --update" raises peaks by hand.
# auto_raise = true

# Who may accept a loss of tests: a file, committed, in git's ssh
# allowed_signers format, a line per person:
#   jane@example.com namespaces="git" ssh-ed25519 AAAA…
# When set, a commit that adds an acceptance or lowers a
# peak passes "sentinel ci" and the pre-push hook only when a key in this
# file signed it (git commit -S with gpg.format=ssh). The file is read as
# the commit's parent holds it, so a commit cannot add the key that signs
# it, and a change to the file or to this key needs such a signature too.
# The path is relative to the repository's root; empty asks for no
# signature. Keep it under .sentinel/, where the guard keeps agents from
# writing. docs/ratchet.md, "Acceptances are a person's", shows the setup.
# signers = ""   # such as ".sentinel/allowed_signers"

# What an agent's change to the runner's harness needs (conftest.py, a Jest
# config or set-up file, a TestMain, Cargo's targets, the CI workflow):
# "report" names it in sentinel ci's summary; "person" also refuses it until
# a person runs "sentinel accept --rev COMMIT --harness --reason WHY". The
# commit's parent's setting decides. docs/ci.md, "Harness changes, named".
# harness = "report"

[guard]
# How hard the guard is: "standard"; "strict" denies what standard asks
# about (a computed command name, code it cannot read); "paranoid" is strict
# and also asks about interpreter one-liners and recursive removal inside
# the project. A project's level can only raise the user's, never lower it.
# level = "standard"

# What the audit trail ($XDG_STATE_HOME/sentinel/guard.jsonl) records:
# "refusals" (denials, asks and warnings), "all", or "off" (your own configuration
# only; a project cannot switch the trail off).
# log = "refusals"

# More files whose contents the agent must not read or write, beside .env,
# keys and credential files (globs over paths relative to the project, or
# absolute).
# secrets = ["config/master.key", "deploy/*.tfvars"]

# A program that reviews each tool call the rules did not deny (your own
# configuration only: a repository cannot make you run a program). It gets
# one JSON object on stdin and allows only by printing {"allowed": true}.
# checker = ["my-policy-service", "--check"]
# checker_timeout = "10s"

# The agents whose guard "sentinel doctor" expects to find installed (in
# the project's settings, the project's local ones or yours): each one
# missing is a gap, and doctor exits 1. Without it, an agent's settings
# directory without the guard is only advice. Names as guard install's
# --agent takes them: amp, augment, claude, cline, codex, copilot, cursor,
# factory, gemini, goose, kilo, kiro, opencode, pi, qwen, windsurf.
# expect = ["claude"]

# Rules checked after the CRITICAL hardstops, first match wins. In a
# project's file only "deny" and "ask" count: a repository is untrusted, so
# "allow" comes only from your own ~/.config/sentinel/config.toml.
# [[guard.rules]]
# tool = "bash"
# pattern = "terraform apply *"
# verdict = "ask"

[ci]
# The commit enforcement starts from: "sentinel ci" and the pre-push hook
# judge only the commits after it (and the acceptances and peaks they
# make), so history from before sentinel is never held to its rules.
# sentinel init writes the commit it was run at; empty judges every commit.
# Moving it later lowers what is judged, so only a person may (as an
# acceptance, and signed where [ratchet] signers asks); moving it earlier
# is anyone's.
# since = ""

[run]
# What "sentinel run" hides from the agent beyond its own list (.env*, ssh
# private keys, cloud and forge credentials): paths, relative to the work
# tree or starting with ~. writable and reveal widen the sandbox, so they
# count only in your own ~/.config/sentinel/config.toml, never here.
# hide = []

[hooks]
# What a hook script does when it cannot find the sentinel binary: fail (the
# default: the commit or push stops and says how to fix it) or, with true,
# pass with a warning. Takes effect at the next "sentinel install".
# fail_open = false
`
