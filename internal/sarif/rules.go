package sarif

// The rules' ids: one per kind of finding.
const (
	// RuleBelowPeak: a count (tests or assertions of a row) is below its
	// peak in the baseline.
	RuleBelowPeak = "below-peak"
	// RuleMissingTest: a test the reference ran is gone.
	RuleMissingTest = "missing-test"
	// RuleSkippedTest: a test the reference ran is switched off.
	RuleSkippedTest = "skipped-test"
	// RuleFewerAssertions: a test (or a file) asserts less than before,
	// or nothing at all: an emptied test.
	RuleFewerAssertions = "fewer-assertions"
	// RuleUncountedFile: a file whose tests were counted can no longer be
	// counted (binary, not UTF-8, too large, a symlink).
	RuleUncountedFile = "uncounted-file"
	// RulePeakLowered: a commit lowered a peak of the baseline without an
	// acceptance, deleted the baseline or left it unreadable.
	RulePeakLowered = "peak-lowered"
	// RulePersonOnly: a commit adds an acceptance, lowers a peak or
	// changes who may sign, and does not show that a person made it.
	RulePersonOnly = "person-only"
	// RuleMissingAssisted, RuleAgentSignoff, RuleAgentIdentity and
	// RuleAgentFooter are the attribution policy's own rules: a commit
	// that shows an agent's hand without Assisted-by, an agent's
	// Signed-off-by, an agent credited as a person (Co-authored-by…), an
	// agent's footer line. Their ids are the policy's (trailers.Rule…),
	// which a result of an attribution finding names.
	RuleMissingAssisted = "missing-assisted-by"
	RuleAgentSignoff    = "agent-signoff"
	RuleAgentIdentity   = "agent-identity"
	RuleAgentFooter     = "agent-footer"
	// RuleMessageTooLarge: a commit's message is larger than sentinel
	// reads, so the attribution policy cannot be shown to hold; the id is
	// the policy's too.
	RuleMessageTooLarge = "message-too-large"
	// RuleNotRun: a test the count sees as active is not in the runners'
	// reports as run (sentinel ci --results).
	RuleNotRun = "test-not-run"
)

// acceptFix is what a person does about a loss that was meant.
const acceptFix = "If the tests were removed or switched off on purpose, a person records it in the same commit: " +
	"`sentinel accept --reason \"WHY THESE TESTS WENT\"`. Otherwise restore them."

// Rules are the driver's rules, in the order results index them.
var Rules = []Rule{
	rule(RuleBelowPeak, "BelowPeak", "A test count is below its peak.",
		"The number of active tests, or of counted assertions, of a language (or scope) is below the peak .sentinel/baseline.json records. The ratchet only lets it fall through an acceptance a person records.",
		acceptFix),
	rule(RuleMissingTest, "MissingTest", "A test was removed.",
		"A test the reference commit runs is gone from the change, under its name and its body (a rename or a move to another file of the same package is not a loss).",
		acceptFix),
	rule(RuleSkippedTest, "SkippedTest", "A test was switched off.",
		"A test the reference commit runs is still there but will not run as written: a skip, a constant-false condition, an ignore attribute.",
		"Switch the test back on, or, if that was meant, have a person record it: `sentinel accept --reason \"WHY\"`."),
	rule(RuleFewerAssertions, "FewerAssertions", "A test asserts less than before.",
		"A test holds fewer counted assertions than in the reference commit, or none at all (an emptied test): an assertion removed, made vacuous, or put where it cannot run.",
		"Restore the assertions, or, if that was meant, have a person record it: `sentinel accept --reason \"WHY\"`."),
	rule(RuleUncountedFile, "UncountedFile", "A test file can no longer be counted.",
		"A file whose tests the reference commit counts turned binary, stopped being valid UTF-8, grew past the size limit or became a symlink, so its tests are not counted.",
		"Make the file countable again, or, if that was meant, have a person record it: `sentinel accept --reason \"WHY\"`."),
	rule(RulePeakLowered, "PeakLowered", "A commit lowered a peak without an acceptance.",
		"Checked commit by commit: a peak of .sentinel/baseline.json may only fall with an acceptance in the same commit, and the baseline may not go or stop reading, so that a hand edit committed with --no-verify does not pass.",
		"Restore the peak in a new commit, or have a person record the loss with `sentinel accept --reason \"WHY\"` in the commit that makes it."),
	rule(RulePersonOnly, "PersonOnly", "A change only a person may make does not show that a person made it.",
		"A commit adds an acceptance, lowers a peak or changes who may sign acceptances, and carries Assisted-by, names an agent, has an agent or bot as author or committer, or lacks the signature [ratchet] signers asks for.",
		"A person makes the commit: as themselves, without Assisted-by, signed when [ratchet] signers is set."),
	rule(RuleMissingAssisted, "MissingAssistedBy", "A commit an agent helped with lacks Assisted-by.",
		"The commit shows an agent's hand (an agent's footer or co-author line) but carries no Assisted-by trailer.",
		"Add the Assisted-by trailer to the commit (the message of the result gives the rebase that does it), then push with --force-with-lease."),
	rule(RuleAgentSignoff, "AgentSignoff", "An agent signed off a commit.",
		"Signed-off-by certifies the Developer Certificate of Origin, which only a person can; the commit has an agent's Signed-off-by.",
		"Remove the agent's Signed-off-by (`git commit --amend`, or a rebase for an older commit); a person signs off with `git commit -s`."),
	rule(RuleAgentIdentity, "AgentIdentity", "A commit credits an agent as a person.",
		"A Co-authored-by, Co-developed-by or other credit names an AI agent; only a person can be credited. The agent's part belongs in Assisted-by.",
		"Turn the line into Assisted-by: `sentinel trailers check --fix FILE` on the message, or amend or rebase the commit."),
	rule(RuleAgentFooter, "AgentFooter", "A commit carries an agent's footer.",
		"The message has a line an agent adds to advertise itself (\"Generated with …\"); the Assisted-by trailer says the same in the kernel's format.",
		"Remove the footer (amend, or rebase for an older commit), and keep or add Assisted-by."),
	rule(RuleMessageTooLarge, "MessageTooLarge", "A commit message is too large to check.",
		"The message is larger than the 1 MiB sentinel reads of a commit message. Trailers and agent footers count wherever git finds them in it, so a message that cannot be read whole cannot be shown to follow the attribution policy.",
		"Reword the commit with a shorter message (`git rebase -i COMMIT~1`, mark it reword), and keep logs and data in files of the commit."),
	rule(RuleNotRun, "TestNotRun", "A test the count sees did not run.",
		"A test the static count sees as active at the commit under check is not in the runners' reports given to `sentinel ci --results` as run: it was deselected, excluded, never compiled, its file was never collected, or it was skipped at run time for a reason the count cannot see. A harness, a runner's configuration or the workflow can switch a whole suite off without a test file changing.",
		"Undo what keeps the runner from running the test, or delete the test in a commit a person makes and accepts: `sentinel accept --reason \"WHY\"`."),
}

func rule(id, name, short, full, help string) Rule {
	return Rule{ID: id, Name: name, ShortDescription: Message{short}, FullDescription: Message{full}, Help: Message{help},
		DefaultConfiguration: Configuration{Level: "error"}}
}

// ruleIndex is the place of the rule id in Rules, or -1, SARIF's "not
// among the driver's rules", for a rule a newer policy added.
func ruleIndex(id string) int {
	for i, r := range Rules {
		if r.ID == id {
			return i
		}
	}
	return -1
}
