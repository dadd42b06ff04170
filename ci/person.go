package ci

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/trailers"
)

// The rules a commit that only a person may make can break, as reports
// name them.
const (
	// RuleAssistedBy: the message carries Assisted-by, so an agent made
	// the commit, or had a hand in it.
	RuleAssistedBy = "assisted-by"
	// RuleAgentTrailer: a Co-authored-by, Signed-off-by or other credit
	// names an agent.
	RuleAgentTrailer = "agent-trailer"
	// RuleAgentFooter: the message has an agent's footer line.
	RuleAgentFooter = "agent-footer"
	// RuleAgentAuthor and RuleAgentCommitter: the author or committer is
	// an agent or a bot.
	RuleAgentAuthor    = "agent-author"
	RuleAgentCommitter = "agent-committer"
	// RuleUnsigned: [ratchet] signers is set and the commit is not signed.
	RuleUnsigned = "unsigned"
	// RuleNotSSH: the commit is signed, but not with an ssh key, and only
	// the ssh keys of the allowed signers file count.
	RuleNotSSH = "not-ssh-signature"
	// RuleUntrusted: git verify-commit does not accept the signature
	// against the allowed signers file the parent holds.
	RuleUntrusted = "untrusted-signature"
	// RuleNoSigners: [ratchet] signers names a file the trusted tree does
	// not have, or one too large to be a list of people.
	RuleNoSigners = "no-signers-file"
	// RuleBadConfig: the trusted tree's configuration does not read, so
	// whom it trusts is unknown.
	RuleBadConfig = "unreadable-config"
	// RuleMessageTooLarge: the message is larger than sentinel reads, so
	// whether it shows an agent's hand is unknown.
	RuleMessageTooLarge = trailers.RuleMessageTooLarge
)

// maxSignersSize bounds the allowed signers file: a line per person is a
// few hundred bytes.
const maxSignersSize = 1 << 20

// Cause is one reason a commit does not show that a person made it.
type Cause struct {
	// Rule is the rule's name (RuleAssistedBy, RuleUnsigned, …).
	Rule string `json:"rule"`
	// Reason says what the commit shows.
	Reason string `json:"reason"`
	// Fix says what the person does instead.
	Fix string `json:"fix"`
}

// PersonIssue is a commit that makes a change only a person may make (it
// adds an acceptance, lowers a peak, or changes who may sign) and does not
// show that a person made it.
type PersonIssue struct {
	// Commit is the commit's full id; Title its first line.
	Commit string `json:"commit"`
	Title  string `json:"title"`
	// Author and Committer are "Name <email>" as the commit records them.
	Author    string `json:"author"`
	Committer string `json:"committer"`
	// Accepted are the acceptances the commit adds.
	Accepted []coverage.Acceptance `json:"accepted"`
	// Lowered are the peaks the commit lowers.
	Lowered []coverage.Lowering `json:"lowered"`
	// Signers is the [ratchet] signers path when the commit changes the
	// setting or the file it names, and "" otherwise.
	Signers string `json:"signers"`
	// Counting says, a sentence each, what the commit changes in the
	// configuration that can lower what is counted: an exclude pattern
	// added, the scopes changed.
	Counting []string `json:"counting"`
	// Since says how the commit moves [ci] since later, so that fewer
	// commits are judged; "" otherwise.
	Since string `json:"since"`
	// Causes are why the commit does not count as a person's.
	Causes []Cause `json:"causes"`
}

// trust is what one commit's tree says about who may sign: the [ratchet]
// signers setting and the file it names.
type trust struct {
	// path is the setting; "" for none.
	path string
	// err is why the configuration does not read; whom it trusts is then
	// unknown.
	err error
	// file is the allowed signers file; nil when the tree lacks it.
	file []byte
	// counting is what the tree's configuration counts; countErr why it
	// does not read.
	counting config.Counting
	countErr error
	// since is its [ci] since ("" where it does not read).
	since string
	// harness is its [ratchet] harness: config.HarnessReport without a
	// configuration, config.HarnessPerson where it does not read.
	harness string
}

// asks reports whether the tree asks for signatures.
func (t trust) asks() bool { return t.path != "" }

// same reports whether two trees trust the same people in the same way.
func (t trust) same(o trust) bool {
	return t.path == o.path && (t.err == nil) == (o.err == nil) && (t.file == nil) == (o.file == nil) && bytes.Equal(t.file, o.file)
}

// readTrust reads the signers setting and file of each revision, in two
// git cat-file processes.
func readTrust(ctx context.Context, root string, revs []string) (map[string]trust, error) {
	specs := make([]string, 0, len(revs))
	for _, r := range revs {
		specs = append(specs, r+":"+config.File)
	}
	cfgs, err := gitrepo.ReadSpecs(ctx, root, specs)
	if err != nil {
		return nil, err
	}
	out := map[string]trust{}
	// Most commits leave the configuration as it was: each distinct copy
	// is read once.
	parsed := map[string]trust{}
	var files []string
	for _, r := range revs {
		t := trust{harness: config.HarnessReport}
		if data := cfgs[r+":"+config.File]; data != nil {
			var ok bool
			if t, ok = parsed[string(data)]; !ok {
				if len(data) > config.MaxSize {
					t.err = fmt.Errorf("%s is larger than %d bytes", config.File, config.MaxSize)
					t.countErr, t.harness = t.err, config.HarnessPerson
				} else {
					t.harness, _ = config.ReadHarness(config.File, data)
					t.path, t.err = config.ReadSigners(config.File, data)
					t.counting, t.countErr = config.ReadCounting(config.File, data)
					t.since, _ = config.ReadSince(config.File, data)
				}
				parsed[string(data)] = t
			}
		}
		if t.asks() {
			files = append(files, r+":"+t.path)
		}
		out[r] = t
	}
	blobs, err := gitrepo.ReadSpecs(ctx, root, files)
	if err != nil {
		return nil, err
	}
	for _, r := range revs {
		if t := out[r]; t.asks() {
			t.file = blobs[r+":"+t.path]
			out[r] = t
		}
	}
	return out, nil
}

// CheckPersons judges the commits that do what only a person may do: the
// baseline changes ReviewHistory found, and any commit that changes
// [ratchet] signers or the file it names. Each must show a person made it:
// no Assisted-by, no agent among its author, committer and credits, and,
// when the parent's configuration sets [ratchet] signers, an ssh signature
// by a key in the allowed signers file as the parent holds it. The parent's
// copy is trusted, not the commit's own, so that a commit cannot add the
// key that signs it; and since a change to that copy is itself such a
// commit, every copy used traces back through signed commits to the base
// of the range, which is already part of the project.
func CheckPersons(ctx context.Context, root string, syntax *trailers.Syntax, commits []gitrepo.Commit, changes []coverage.BaselineChange) ([]PersonIssue, error) {
	var revs []string
	seen := map[string]bool{}
	for _, c := range commits {
		for _, r := range append([]string{c.Hash}, c.Parents...) {
			if !seen[r] {
				seen[r] = true
				revs = append(revs, r)
			}
		}
	}
	trusts, err := readTrust(ctx, root, revs)
	if err != nil {
		return nil, err
	}
	byCommit := map[string]coverage.BaselineChange{}
	for _, ch := range changes {
		byCommit[ch.Commit] = ch
	}
	v := &verifier{root: root}
	defer v.close()
	var issues []PersonIssue
	for _, c := range commits {
		ch := byCommit[c.Hash]
		issue := PersonIssue{
			Commit: c.Hash, Title: firstLine(c.Message), Author: c.Author, Committer: c.Committer,
			Accepted: ch.Added, Lowered: ch.Lowered,
		}
		if signersChanged(trusts, c) {
			// The setting as the commit leaves it, or, where the commit
			// switches it off, as a parent had it.
			for _, r := range append([]string{c.Hash}, c.Parents...) {
				if issue.Signers = trusts[r].path; issue.Signers != "" {
					break
				}
			}
		}
		issue.Counting = countingLowered(trusts, c)
		if issue.Since, err = sinceMoved(ctx, root, trusts, c); err != nil {
			return nil, err
		}
		if len(issue.Accepted) == 0 && len(issue.Lowered) == 0 && issue.Signers == "" && len(issue.Counting) == 0 && issue.Since == "" {
			continue
		}
		issue.Causes = agentCauses(syntax, c)
		var gov trust // a root commit has nothing before it to trust
		if len(c.Parents) > 0 {
			gov = trusts[c.Parents[0]]
		}
		if cur := trusts[c.Hash]; issue.Signers != "" && cur.asks() && cur.err == nil && cur.file == nil {
			issue.Causes = append(issue.Causes, Cause{Rule: RuleNoSigners,
				Reason: fmt.Sprintf("[ratchet] signers names %s, which the commit does not have: no signature after it could count", quote.Path(cur.path)),
				Fix:    fmt.Sprintf("add %s in the same commit that sets [ratchet] signers, with a line `EMAIL namespaces=\"git\" ssh-ed25519 AAAA…` per person", quote.Path(cur.path)),
			})
		}
		sig, err := v.signatureCauses(ctx, c, gov)
		if err != nil {
			return nil, err
		}
		issue.Causes = append(issue.Causes, sig...)
		if len(issue.Causes) > 0 {
			if issue.Accepted == nil {
				issue.Accepted = []coverage.Acceptance{}
			}
			if issue.Lowered == nil {
				issue.Lowered = []coverage.Lowering{}
			}
			if issue.Counting == nil {
				issue.Counting = []string{}
			}
			issues = append(issues, issue)
		}
	}
	return issues, nil
}

// signersChanged reports whether a commit changes whom the project trusts
// to sign: the [ratchet] signers setting or the file it names, as against
// every parent (a merge that takes one side's copy changes nothing; that
// side's commits are judged themselves). A change between two trees that
// both ask for no signature (one of them with a configuration that does
// not read) is none.
func signersChanged(trusts map[string]trust, c gitrepo.Commit) bool {
	cur := trusts[c.Hash]
	asks := cur.asks()
	for _, p := range c.Parents {
		if trusts[p].same(cur) {
			return false
		}
		asks = asks || trusts[p].asks()
	}
	return asks
}

// countingLowered says what a commit changes in the configuration that can
// lower what is counted, as against its first parent; nothing when it
// leaves the configuration as some parent had it (a merge that takes one
// side's copy: that side's commits are judged themselves). A configuration
// that does not read counts with the defaults, the most.
func countingLowered(trusts map[string]trust, c gitrepo.Commit) []string {
	if len(c.Parents) == 0 {
		return nil
	}
	cur := trusts[c.Hash]
	for _, p := range c.Parents {
		if pt := trusts[p]; (pt.countErr == nil) == (cur.countErr == nil) &&
			pt.counting.SameExcludes(cur.counting) && len(cur.counting.Lowers(pt.counting)) == 0 {
			return nil
		}
	}
	if cur.countErr != nil {
		return nil
	}
	return cur.counting.Lowers(trusts[c.Parents[0]].counting)
}

// agentCauses lists what shows an agent made the commit or had a hand in
// it. The acceptance is a person's decision, so a hand is enough.
func agentCauses(syntax *trailers.Syntax, c gitrepo.Commit) []Cause {
	var out []Cause
	const personFix = "an acceptance is a person's decision: make the removal and its acceptance a commit of your own (run `sentinel accept --reason TEXT` yourself), without Assisted-by, and keep the agent's other work in commits of their own"
	if c.Truncated() {
		// Only the title was read: an Assisted-by or a footer may be in
		// the rest, so the message cannot show a person made the commit.
		onto := c.Short() + "~1"
		if len(c.Parents) == 0 {
			onto = "--root"
		}
		out = append(out, Cause{Rule: RuleMessageTooLarge,
			Reason: fmt.Sprintf("the message is %d bytes, and sentinel reads commit messages of up to %d bytes: what would show an agent's hand may be in the part it cannot read", c.MessageSize, gitrepo.MaxMessage),
			Fix:    fmt.Sprintf("reword the commit with a shorter message, and keep logs and data in files of the commit: `git rebase -i %s` (mark %s reword)", onto, c.Short()),
		})
		return append(out, identityCauses(c)...)
	}
	assisted := ""
	for _, t := range syntax.Parse(c.Message) {
		if strings.EqualFold(t.Token, trailers.AssistedBy) && assisted == "" {
			assisted = trailers.AssistedBy + ": " + t.Value
		}
	}
	for _, line := range strings.Split(string(c.Message), "\n") {
		// A line outside the trailer block counts too: it says the same.
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && strings.EqualFold(strings.TrimSpace(k), trailers.AssistedBy) && assisted == "" {
			assisted = trailers.AssistedBy + ": " + strings.TrimSpace(v)
		}
	}
	if assisted != "" {
		out = append(out, Cause{Rule: RuleAssistedBy,
			Reason: fmt.Sprintf("the message carries the trailer %s, so an agent made this commit or had a hand in it", quote.Name(assisted)),
			Fix:    personFix,
		})
	}
	for _, t := range syntax.Parse(c.Message) {
		if !isCredit(t.Token) {
			continue
		}
		if a := trailers.MatchIdentity(t.Value); a != nil {
			out = append(out, Cause{Rule: RuleAgentTrailer,
				Reason: fmt.Sprintf("%s names %s, an AI agent", quote.Name(t.Token+": "+t.Value), a.Product),
				Fix:    personFix,
			})
		}
	}
	for _, line := range strings.Split(string(c.Message), "\n") {
		if a := trailers.MatchFooter(line); a != nil {
			out = append(out, Cause{Rule: RuleAgentFooter,
				Reason: fmt.Sprintf("the message has %s's footer %s", a.Product, quote.Name(strings.TrimSpace(line))),
				Fix:    personFix,
			})
			break
		}
	}
	return append(out, identityCauses(c)...)
}

// identityCauses lists the author or committer that is an agent or a bot.
func identityCauses(c gitrepo.Commit) []Cause {
	var out []Cause
	for _, who := range []struct{ rule, role, ident string }{{RuleAgentAuthor, "author", c.Author}, {RuleAgentCommitter, "committer", c.Committer}} {
		if what := agentIdentity(who.ident); what != "" {
			out = append(out, Cause{Rule: who.rule,
				Reason: fmt.Sprintf("the %s, %s, is %s, not a person", who.role, quote.Name(who.ident), what),
				Fix:    "commit it as yourself: `git commit --amend --reset-author --no-edit` (with your own user.name and user.email), or make the acceptance a commit of your own",
			})
		}
	}
	return out
}

// isCredit reports whether a trailer credits or certifies someone.
func isCredit(token string) bool {
	for _, k := range trailers.AttributionKeys {
		if strings.EqualFold(k, token) {
			return true
		}
	}
	return false
}

// agentIdentity says what an identity is when it is not a person's: a
// known agent ("Claude Code"), or a bot ("a bot"), GitHub's bots and apps
// being named "login[bot]" and committing as
// "<id>+login[bot]@users.noreply.github.com"; "" for a person.
func agentIdentity(ident string) string {
	if a := trailers.MatchIdentity(ident); a != nil {
		return a.Product + " (an AI agent)"
	}
	lower := strings.ToLower(ident)
	name, email, _ := strings.Cut(lower, "<")
	email = strings.TrimSuffix(strings.TrimSpace(email), ">")
	local, domain, _ := strings.Cut(email, "@")
	if strings.HasSuffix(strings.TrimSpace(name), "[bot]") || (strings.HasSuffix(local, "[bot]") && domain == "users.noreply.github.com") {
		return "a bot"
	}
	return ""
}

// verifier checks signatures, writing each allowed signers file it is
// given to a temporary file once.
type verifier struct {
	root  string
	dir   string
	files map[string]string
}

func (v *verifier) close() {
	if v.dir != "" {
		os.RemoveAll(v.dir)
	}
}

// file returns the path of a temporary copy of an allowed signers file.
// git reads the file by path, and the copy in the parent's tree is not in
// the work tree.
func (v *verifier) file(data []byte) (string, error) {
	if p, ok := v.files[string(data)]; ok {
		return p, nil
	}
	if v.dir == "" {
		d, err := os.MkdirTemp("", "sentinel-signers-")
		if err != nil {
			return "", fmt.Errorf("write the allowed signers: %w", err)
		}
		v.dir, v.files = d, map[string]string{}
	}
	p := filepath.Join(v.dir, fmt.Sprintf("allowed_signers.%d", len(v.files)))
	if err := os.WriteFile(p, data, 0o600); err != nil {
		return "", fmt.Errorf("write the allowed signers: %w", err)
	}
	v.files[string(data)] = p
	return p, nil
}

// signatureCauses checks a commit against the trust of its parent.
func (v *verifier) signatureCauses(ctx context.Context, c gitrepo.Commit, gov trust) ([]Cause, error) {
	const keyFix = "a person with a key in %[1]s signs it: `git config gpg.format ssh`, `git config user.signingkey ~/.ssh/id_ed25519.pub`, then `git commit --amend -S --no-edit` (for a commit below others, `git rebase --exec 'git commit --amend -S --no-edit' %[2]s~1`)"
	if gov.err != nil {
		return []Cause{{Rule: RuleBadConfig,
			Reason: fmt.Sprintf("the parent's configuration does not read, so whom it trusts to sign is unknown: %s", gov.err),
			Fix:    "make the configuration read again in the commit that broke it, and rebuild the commits after it",
		}}, nil
	}
	if !gov.asks() {
		return nil, nil
	}
	where := quote.Path(gov.path)
	switch {
	case gov.file == nil:
		return []Cause{{Rule: RuleNoSigners,
			Reason: fmt.Sprintf("[ratchet] signers names %s, which the parent commit does not have, so no signature can count", where),
			Fix:    fmt.Sprintf("add %s in the commit that sets [ratchet] signers, and rebuild the commits after it", where),
		}}, nil
	case len(gov.file) > maxSignersSize:
		return []Cause{{Rule: RuleNoSigners,
			Reason: fmt.Sprintf("%s in the parent commit is larger than %d bytes, too large for a list of people", where, maxSignersSize),
			Fix:    fmt.Sprintf("keep one line per person in %s", where),
		}}, nil
	case c.Signature == "":
		return []Cause{{Rule: RuleUnsigned,
			Reason: fmt.Sprintf("[ratchet] signers is %s in the parent commit, and this commit is not signed", where),
			Fix:    fmt.Sprintf(keyFix, where, c.Short()),
		}}, nil
	case c.Signature != "ssh":
		return []Cause{{Rule: RuleNotSSH,
			Reason: fmt.Sprintf("the commit carries an %s signature, and only the ssh keys in %s count (a host's squash or rebase merge signs with its own key)", c.Signature, where),
			Fix:    fmt.Sprintf(keyFix, where, c.Short()),
		}}, nil
	}
	path, err := v.file(gov.file)
	if err != nil {
		return nil, err
	}
	res, err := gitrepo.VerifyCommit(ctx, v.root, c.Hash, path)
	if err != nil {
		return nil, err
	}
	if res.OK {
		return nil, nil
	}
	said := res.Output
	if said == "" {
		said = "no good signature"
	}
	return []Cause{{Rule: RuleUntrusted,
		Reason: fmt.Sprintf("its signature is not by a key in %s as the parent commit holds it (a key the commit adds itself does not count); git verify-commit says: %s", where, quote.Name(strings.ReplaceAll(said, "\n", "; "))),
		Fix:    fmt.Sprintf(keyFix, where, c.Short()) + "; a new signer's key is added to the file first, in a commit an allowed signer signs",
	}}, nil
}

// firstLine is a commit's title.
func firstLine(msg []byte) string {
	line, _, _ := bytes.Cut(msg, []byte{'\n'})
	return strings.TrimRight(string(line), "\r")
}

// changes lists, for people, what the commit does that only a person may
// do.
func (p *PersonIssue) changes() []string {
	var out []string
	for _, a := range p.Accepted {
		if a.AssistedBy != "" {
			out = append(out, fmt.Sprintf("it attests that commit %s was made with %s (at %s by %s)", gitrepo.ShortID(a.Commit), quote.Name(a.AssistedBy), quote.Name(a.At), quote.Name(a.By)))
			continue
		}
		out = append(out, fmt.Sprintf("it adds the acceptance at %s by %s: %s", quote.Name(a.At), quote.Name(a.By), quote.Name(a.Reason)))
	}
	for _, l := range p.Lowered {
		out = append(out, fmt.Sprintf("it lowers the peak of %s %s from %d to %d", quote.Name(l.Key), l.Figure, l.Before, l.After))
	}
	if p.Signers != "" {
		out = append(out, fmt.Sprintf("it changes who may sign acceptances ([ratchet] signers, %s)", quote.Path(p.Signers)))
	}
	for _, c := range p.Counting {
		out = append(out, quote.Text(c)+", which can lower what is counted")
	}
	if p.Since != "" {
		out = append(out, p.Since)
	}
	return out
}

// Summary says on one line what the commit does that only a person may
// do.
func (p *PersonIssue) Summary() string { return strings.Join(p.changes(), "; ") }

// writeText prints the issue for people: the commit, what it changes, and
// each cause with what to do instead.
func (p *PersonIssue) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "commit %s %s: only a person may make this change, and the commit does not show that a person made it\n", gitrepo.ShortID(p.Commit), quote.Name(p.Title))
	for _, c := range p.changes() {
		fmt.Fprintf(b, "  %s\n", c)
	}
	for _, c := range p.Causes {
		fmt.Fprintf(b, "  %s: %s\n", c.Rule, c.Reason)
		fmt.Fprintf(b, "    instead: %s\n", c.Fix)
	}
}
