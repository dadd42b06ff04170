package sarif

// Results gathers a log's results, each test once.
type Results struct {
	list []Result
	// named are the tests a result names already, by rule, path and name.
	named map[string]bool
}

// Add adds a result of rule at path (line 0: the whole file), with the
// message text and what identifies the finding.
func (rs *Results) Add(rule, path string, line int, text string, identity ...string) {
	rs.list = append(rs.list, result(rule, path, line, text, identity...))
}

// Test adds a result about the test name at path and line, unless one of
// the same rule names it already.
func (rs *Results) Test(rule, path string, line int, name, text string) {
	k := rule + "\x00" + path + "\x00" + name
	if rs.named[k] {
		return
	}
	if rs.named == nil {
		rs.named = map[string]bool{}
	}
	rs.named[k] = true
	rs.Add(rule, path, line, text, path, name)
}

// Log is the log of one run of sentinel at version with the results, in
// the order they were added.
func (rs *Results) Log(version string) *Log { return New(version, rs.list) }
