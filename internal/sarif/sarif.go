// Package sarif writes what `sentinel check` and `sentinel ci` find as a
// SARIF 2.1.0 log, the format code scanning reads (GitHub's upload-sarif
// action among others): one run of the tool "sentinel", with one rule per
// kind of finding (Rules) and one result per finding, each at level
// "error", with the fix in its message and a location in the repository.
//
// A result is on the file it is about: a test file and the test's line, or
// the baseline for a count below its peak. Code scanning wants a file for
// every result, so a finding about a commit rather than a file (its
// attribution, or a change only a person may make) is put on the file
// that holds the rule it breaks: the configuration for attribution, the
// baseline for the ratchet. Each result has a partial fingerprint made of
// its rule and what identifies the finding (the test, the commit), so that
// code scanning tells two findings on one line apart and follows one
// finding from run to run.
//
// The package knows the format and the rules, not the reports: coverage
// (CheckResult.SARIF) and ci (Report.SARIF) build their logs with Results.
package sarif

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Version is the SARIF version written.
const Version = "2.1.0"

// Schema is the URI of the SARIF 2.1.0 schema (with its errata), which a
// log names in "$schema".
const Schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// InformationURI is where sentinel is described.
const InformationURI = "https://github.com/gitsentinel/sentinel"

// FingerprintKey names sentinel's partial fingerprint of a result; the
// "/v1" is the version of how it is computed.
const FingerprintKey = "sentinelFinding/v1"

// Log is a SARIF log.
type Log struct {
	// Schema is Schema.
	Schema string `json:"$schema"`
	// Version is Version.
	Version string `json:"version"`
	// Runs holds one run.
	Runs []Run `json:"runs"`
}

// Run is one run of sentinel.
type Run struct {
	// Tool is sentinel and its rules.
	Tool Tool `json:"tool"`
	// Results are the findings; [] when there are none, which tells code
	// scanning that earlier findings are fixed.
	Results []Result `json:"results"`
}

// Tool describes the tool that ran.
type Tool struct {
	// Driver is sentinel itself.
	Driver Driver `json:"driver"`
}

// Driver is the tool component that found the results.
type Driver struct {
	// Name is "sentinel".
	Name string `json:"name"`
	// Version is sentinel's version.
	Version string `json:"version"`
	// InformationURI is InformationURI.
	InformationURI string `json:"informationUri"`
	// Rules are every rule a result may name: Rules.
	Rules []Rule `json:"rules"`
}

// Rule is a reporting descriptor: one kind of finding.
type Rule struct {
	// ID is the rule's id, which results name in ruleId.
	ID string `json:"id"`
	// Name is the id in one word of upper camel case.
	Name string `json:"name"`
	// ShortDescription is one sentence.
	ShortDescription Message `json:"shortDescription"`
	// FullDescription says what the rule holds a change to.
	FullDescription Message `json:"fullDescription"`
	// Help says what to do about a finding.
	Help Message `json:"help"`
	// DefaultConfiguration gives the level: "error" for every rule.
	DefaultConfiguration Configuration `json:"defaultConfiguration"`
}

// Configuration is a rule's default configuration.
type Configuration struct {
	// Level is "error".
	Level string `json:"level"`
}

// Message is plain text.
type Message struct {
	// Text is the message.
	Text string `json:"text"`
}

// Result is one finding.
type Result struct {
	// RuleID and RuleIndex name the rule, by its id and its place in the
	// driver's rules.
	RuleID    string `json:"ruleId"`
	RuleIndex int    `json:"ruleIndex"`
	// Level is "error".
	Level string `json:"level"`
	// Message says what was found and how to fix it.
	Message Message `json:"message"`
	// Locations holds one location.
	Locations []Location `json:"locations"`
	// PartialFingerprints holds FingerprintKey.
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

// Location is where a result is.
type Location struct {
	// PhysicalLocation is a file of the repository, and a line in it.
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file, and where known a line in it.
type PhysicalLocation struct {
	// ArtifactLocation is the file.
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	// Region is the line; nil when the finding is about the whole file.
	Region *Region `json:"region,omitempty"`
}

// ArtifactLocation is a file, by its URI.
type ArtifactLocation struct {
	// URI is the file's path relative to the repository's root, as a
	// URI reference (see URI).
	URI string `json:"uri"`
}

// Region is a line of a file.
type Region struct {
	// StartLine is 1-based.
	StartLine int `json:"startLine"`
}

// Write writes the log as JSON, indented by two spaces.
func Write(w io.Writer, l *Log) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(l); err != nil {
		return fmt.Errorf("write the SARIF log: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// New is a log of one run of sentinel at version, with results.
func New(version string, results []Result) *Log {
	if results == nil {
		results = []Result{}
	}
	return &Log{Schema: Schema, Version: Version, Runs: []Run{{
		Tool:    Tool{Driver: Driver{Name: "sentinel", Version: version, InformationURI: InformationURI, Rules: Rules}},
		Results: results,
	}}}
}

// URI is a repository-relative slash path as a relative URI reference:
// every byte but the unreserved characters (letters, digits, - . _ ~) and
// the slashes between segments is percent-encoded, so that a space, a
// colon in the first segment (which would read as a scheme), a # or a ?
// stays part of the path, and a name that is not UTF-8 keeps its bytes.
func URI(path string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// result is a result of rule at path (line 0: the whole file), with the
// message text and what identifies the finding.
func result(rule, path string, line int, text string, identity ...string) Result {
	loc := PhysicalLocation{ArtifactLocation: ArtifactLocation{URI: URI(path)}}
	if line > 0 {
		loc.Region = &Region{StartLine: line}
	}
	sum := sha256.Sum256([]byte(rule + "\x00" + strings.Join(identity, "\x00")))
	return Result{RuleID: rule, RuleIndex: ruleIndex(rule), Level: "error", Message: Message{Text: text},
		Locations: []Location{{PhysicalLocation: loc}}, PartialFingerprints: map[string]string{FingerprintKey: hex.EncodeToString(sum[:16])}}
}
