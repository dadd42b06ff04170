package install

// FailAnswer is what the installed command prints and how it exits when
// sentinel is missing, crashes or exits with a status the host's protocol
// does not use: the host's own refusal, which a self-test of the installed
// hook must read as one. The reason it prints, on stderr for the hosts that
// read exit status 2, is left out.
func (t *Target) FailAnswer() (exit int, stdout string) {
	switch t.fail {
	case failCursor:
		return 2, `{"permission":"deny","user_message":"` + failMessage + `","agent_message":"` + failMessage + `"}`
	case failCopilot:
		return 2, `{"permissionDecision":"deny","permissionDecisionReason":"` + failMessage + `"}`
	case failCline:
		return 2, `{"cancel":true,"errorMessage":"` + failMessage + `"}`
	}
	return 2, ""
}
