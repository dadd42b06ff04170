package argspec

import (
	"strings"
	"sync"
)

// gitGlobal are git's own options before the subcommand. git.c matches
// them exactly (no abbreviation), and they end at the first word that is
// not one of them.
var gitGlobal = sync.OnceValue(func() *Spec {
	return parseSpec("C= c= git-dir= work-tree= namespace= exec-path? config-env= super-prefix= list-cmds= attr-source= "+
		"p|paginate P|no-pager bare no-replace-objects no-lazy-fetch literal-pathspecs glob-pathspecs noglob-pathspecs "+
		"icase-pathspecs no-optional-locks no-advice html-path man-path info-path v|version h|help", false, false, true)
})

// GitSubs are git's subcommands' options, as parse-options reads them:
// unique prefixes of long options, --no-X negations, options after
// operands until "--".
var GitSubs = sync.OnceValue(func() *specTable {
	desc := map[string]string{
		"commit":         "a|all p|patch C|reuse-message= c|reedit-message= fixup= squash= reset-author short branch porcelain long z|null F|file= author= date= m|message= t|template= s|signoff trailer= n|no-verify allow-empty allow-empty-message cleanup= e|edit i|include o|only pathspec-from-file= pathspec-file-nul u|untracked-files? v|verbose q|quiet dry-run status S|gpg-sign? amend no-post-rewrite",
		"push":           "v|verbose q|quiet repo= all branches mirror d|delete tags n|dry-run porcelain f|force force-with-lease? force-if-includes recurse-submodules= thin receive-pack= exec= u|set-upstream progress prune no-verify follow-tags signed? atomic o|push-option= 4|ipv4 6|ipv6",
		"reset":          "q|quiet refresh mixed soft hard merge keep recurse-submodules? p|patch N|intent-to-add pathspec-from-file= pathspec-file-nul",
		"clean":          "q|quiet n|dry-run f|force i|interactive d x X e|exclude=",
		"checkout":       "q|quiet b= B= l t|track? guess orphan= 2|ours 3|theirs f|force m|merge conflict= d|detach ignore-skip-worktree-bits ignore-other-worktrees overwrite-ignore recurse-submodules? p|patch pathspec-from-file= pathspec-file-nul progress overlay",
		"switch":         "c|create= C|force-create= d|detach guess f|force|discard-changes m|merge conflict= q|quiet t|track? orphan= ignore-other-worktrees recurse-submodules? progress",
		"restore":        "s|source= p|patch W|worktree S|staged q|quiet 2|ours 3|theirs m|merge conflict= overlay ignore-unmerged ignore-skip-worktree-bits recurse-submodules? pathspec-from-file= pathspec-file-nul progress",
		"branch":         "v|verbose q|quiet t|track? u|set-upstream-to= unset-upstream color? r|remotes contains= no-contains= merged= no-merged= column? sort= points-at= a|all d|delete D m|move M c|copy C l|list show-current create-reflog edit-description f|force format= i|ignore-case omit-empty recurse-submodules",
		"tag":            "l|list n? d|delete v|verify a|annotate m|message= F|file= s|sign u|local-user= f|force cleanup= create-reflog column? contains= no-contains= merged= no-merged= sort= points-at= format= i|ignore-case e|edit trailer=",
		"stash":          "p|patch S|staged k|keep-index u|include-untracked a|all q|quiet m|message= pathspec-from-file= pathspec-file-nul index",
		"rm":             "n|dry-run q|quiet cached f|force r ignore-unmatch sparse pathspec-from-file= pathspec-file-nul",
		"mv":             "v|verbose n|dry-run f|force k sparse",
		"worktree":       "f|force d|detach checkout lock reason= b= B= orphan q|quiet track guess-remote n|dry-run v|verbose expire= porcelain z",
		"rebase":         "onto= keep-base continue abort quit skip edit-todo show-current-patch i|interactive r|rebase-merges? x|exec= root autosquash autostash f|force-rebase fork-point committer-date-is-author-date ignore-date m|merge s|strategy= X|strategy-option= S|gpg-sign? q|quiet v|verbose stat n|no-stat no-verify C= update-refs empty= keep-empty reapply-cherry-picks reschedule-failed-exec signoff whitespace= ignore-whitespace apply ff",
		"merge":          "commit e|edit cleanup= ff ff-only log? stat n|no-stat squash verify s|strategy= X|strategy-option= S|gpg-sign? verify-signatures summary q|quiet v|verbose progress autostash allow-unrelated-histories signoff m|message= F|file= into-name= rerere-autoupdate abort quit continue overwrite-ignore",
		"cherry-pick":    "e|edit cleanup= n|no-commit m|mainline= r x ff allow-empty allow-empty-message keep-redundant-commits empty= s|signoff S|gpg-sign? strategy= X|strategy-option= rerere-autoupdate continue abort quit skip",
		"revert":         "e|edit cleanup= n|no-commit m|mainline= s|signoff S|gpg-sign? strategy= X|strategy-option= rerere-autoupdate continue abort quit skip reference",
		"am":             "i|interactive 3|3way q|quiet s|signoff k|keep keep-non-patch keep-cr c|scissors m|message-id u|utf8 whitespace= ignore-space-change ignore-whitespace directory= exclude= include= C= p= patch-format= reject resolvemsg= continue r|resolved skip abort quit show-current-patch? committer-date-is-author-date ignore-date S|gpg-sign? empty= n|no-verify",
		"gc":             "q|quiet prune? aggressive auto force keep-largest-pack cruft max-cruft-size= detach",
		"prune":          "n|dry-run v|verbose progress expire=",
		"reflog":         "expire= expire-unreachable= rewrite updateref stale-fix n|dry-run verbose all single-worktree",
		"update-ref":     "m= d|delete no-deref stdin z create-reflog",
		"symbolic-ref":   "m= d|delete q|quiet short recurse",
		"config":         "global system local worktree f|file= blob= get get-all get-regexp get-urlmatch replace-all add unset unset-all rename-section remove-section l|list fixed-value t|type= bool int bool-or-int bool-or-str path expiry-date z|null name-only includes show-origin show-scope default= e|edit comment= all value= regexp= url=",
		"fetch":          "all a|append atomic upload-pack= f|force k|keep multiple p|prune P|prune-tags t|tags n depth= deepen= shallow-since= shallow-exclude= unshallow update-shallow refmap= o|server-option= 4|ipv4 6|ipv6 q|quiet v|verbose progress dry-run recurse-submodules? j|jobs= u|update-head-ok",
		"pull":           "q|quiet v|verbose recurse-submodules? commit e|edit cleanup= ff ff-only log? signoff stat n|no-stat squash verify s|strategy= X|strategy-option= S|gpg-sign? autostash r|rebase? all a|append upload-pack= f|force t|tags p|prune j|jobs= depth= unshallow",
		"clone":          "v|verbose q|quiet progress n|no-checkout bare mirror l|local no-hardlinks s|shared recurse-submodules? j|jobs= template= reference= dissociate o|origin= b|branch= u|upload-pack= depth= shallow-since= single-branch tags c|config= separate-git-dir= filter= sparse",
		"submodule":      "q|quiet recursive f|force all",
		"bisect":         "",
		"difftool":       "d|dir-diff y|no-prompt prompt t|tool= tool-help symlinks x|extcmd= g|gui trust-exit-code",
		"filter-branch":  "",
		"notes":          "",
		"apply":          "stat numstat summary check index cached intent-to-add N 3|3way apply no-add build-fake-ancestor= R|reverse allow-binary-replacement binary reject z p= C= unidiff-zero exclude= include= ignore-space-change ignore-whitespace whitespace= inaccurate-eof v|verbose q|quiet recount directory= allow-empty",
		"checkout-index": "u|index q|quiet f|force a|all n|no-create prefix= stage= temp stdin z",
		"read-tree":      "m reset u i n|dry-run v trivial aggressive prefix= index-output= exclude-per-directory= q|quiet",
		"archive":        "format= l|list v|verbose prefix= o|output= add-file= add-virtual-file= worktree-attributes remote= exec= mtime= 0 1 2 3 4 5 6 7 8 9",
	}
	m := &specTable{descs: make(map[string]specDesc, len(desc))}
	for name, d := range desc {
		m.descs[name] = specDesc{desc: d, abbrev: true, gitNeg: true}
	}
	return m
})

// Git is a git invocation read against git's tables.
type Git struct {
	// Global are the options before the subcommand.
	Global *Parsed
	// Sub is the subcommand, after alias expansion, or "" when there is
	// none or it is not literal.
	Sub string
	// Computed marks a subcommand that is not a literal ($CMD).
	Computed bool
	// Args are the subcommand's arguments, read against its table (or as
	// unknown options and operands for a subcommand without one).
	Args *Parsed
	// Config are the settings given with -c and --config-env, keys in
	// lower case.
	Config map[string]string
}

// ParseGitEnv reads git's argv with the settings the environment gives it:
// GIT_CONFIG_PARAMETERS ('key'='value' pairs, as -c writes them) and
// GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n.
func ParseGitEnv(argv []string, env map[string]string) *Git {
	pre := map[string]string{}
	if params, ok := env["GIT_CONFIG_PARAMETERS"]; ok {
		for _, kv := range splitConfigParameters(params) {
			k, v, _ := strings.Cut(kv, "=")
			pre[strings.ToLower(k)] = v
		}
	}
	for k, v := range env {
		if n, ok := strings.CutPrefix(k, "GIT_CONFIG_KEY_"); ok {
			pre[strings.ToLower(v)] = env["GIT_CONFIG_VALUE_"+n]
		}
	}
	return parseGitWith(argv, pre)
}

// splitConfigParameters reads GIT_CONFIG_PARAMETERS: shell-quoted words,
// each 'key=value' or 'key'='value'.
func splitConfigParameters(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			in = !in
		case c == ' ' && !in:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// ParseGit reads git's argv (without "git").
func ParseGit(argv []string) *Git {
	return parseGitWith(argv, nil)
}

func parseGitWith(argv []string, pre map[string]string) *Git {
	g := &Git{Config: map[string]string{}}
	for k, v := range pre {
		g.Config[k] = v
	}
	g.Global = gitGlobal().Parse(argv)
	for _, o := range g.Global.Opts {
		switch o.ID {
		case "c":
			k, v, _ := strings.Cut(o.Value, "=")
			g.Config[strings.ToLower(k)] = v
		case "config-env":
			k, _, _ := strings.Cut(o.Value, "=")
			g.Config[strings.ToLower(k)] = "$env"
		}
	}
	rest := g.Global.Operands
	// Aliases given on the command line are expanded as git would: a
	// "!cmd" alias is a shell command, handled by the caller.
	for depth := 0; len(rest) > 0 && depth < 8; depth++ {
		alias, ok := g.Config["alias."+strings.ToLower(rest[0])]
		if !ok || strings.HasPrefix(alias, "!") {
			break
		}
		rest = append(strings.Fields(alias), rest[1:]...)
	}
	if len(rest) == 0 {
		g.Args = &Parsed{AfterDash: -1}
		return g
	}
	g.Sub = rest[0]
	if strings.ContainsAny(g.Sub, "$`") {
		g.Computed = true
	}
	spec := GitSubs().Get(g.Sub)
	if spec == nil {
		spec = &Spec{Short: map[byte]*Opt{}, Long: map[string]*Opt{}}
	}
	g.Args = spec.Parse(rest[1:])
	return g
}

// SkipsHooks reports options that skip a subcommand's hooks: --no-verify,
// -n where it means that, or --no-verify where git spells the option
// verify (merge).
func (g *Git) SkipsHooks() bool {
	return g.Args.On("no-verify") || g.Args.Off("verify")
}
