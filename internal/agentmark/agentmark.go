// Package agentmark is the mark `sentinel run` leaves inside its sandbox:
// a read-only file at a fixed path that names the agent the sandbox was
// started for. It lives in the sandbox's own mounts, not in any process's
// environment, so every descendant sees it and none can remove it: env -i,
// setsid and a double fork leave it where it is.
//
// The mark only ever adds: a process that reads it knows an agent is at
// work, which can add Assisted-by or refuse a sign-off, never take either
// away. So a mark forged outside a sandbox (which takes root, /run being
// root's) can only make a person's commit look assisted, never an agent's
// commit look like a person's.
package agentmark

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Dir is the sandbox's own directory, a read-only tmpfs inside.
const Dir = "/run/sentinel"

// Path is the mark.
const Path = Dir + "/agent"

// Socket is the broker's socket, bound into the sandbox by `sentinel run`.
const Socket = Dir + "/broker.sock"

// maxSize bounds a read of the mark; a real one is a short line.
const maxSize = 4096

// Mark is what the mark says.
type Mark struct {
	// Agent is the agent's name as Assisted-by writes it ("Claude").
	Agent string
	// Model is the model, or empty when `sentinel run` cannot tell.
	Model string
}

// Format is the mark's bytes: "agent=NAME\nmodel=MODEL\n".
func (m Mark) Format() []byte {
	return fmt.Appendf(nil, "agent=%s\nmodel=%s\n", oneLine(m.Agent), oneLine(m.Model))
}

// oneLine keeps a value on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), "-")
}

// Parse reads a mark's bytes; unknown lines are ignored, so that a later
// sentinel may say more.
func Parse(data []byte) (Mark, error) {
	var m Mark
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch k {
		case "agent":
			m.Agent = strings.TrimSpace(v)
		case "model":
			m.Model = strings.TrimSpace(v)
		}
	}
	if m.Agent == "" {
		return Mark{}, errors.New("the agent mark names no agent")
	}
	return m, nil
}

// Read reads the mark at path; ok is false when there is none. A mark that
// exists and cannot be read or parsed still says an agent is at work: it
// is reported as one with the name "agent", since the mark can only add.
func Read(path string) (m Mark, ok bool) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Mark{}, false
	}
	if err != nil {
		return Mark{Agent: "agent"}, true
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSize))
	if err != nil {
		return Mark{Agent: "agent"}, true
	}
	m, err = Parse(data)
	if err != nil {
		return Mark{Agent: "agent"}, true
	}
	return m, true
}
