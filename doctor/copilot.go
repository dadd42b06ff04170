package doctor

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// maxCopilotConfig bounds the read of Copilot CLI's own configuration.
const maxCopilotConfig = 1 << 20

// copilotTrust is where Copilot CLI keeps the folders it trusts, and
// whether it trusts a folder.
type copilotTrust struct {
	// config is the file read: config.json in $COPILOT_HOME, else in
	// ~/.copilot; "" when neither can be told.
	config string
	// why says why Copilot CLI skips a project's hooks in the folder, ""
	// when it trusts it.
	why string
}

// copilotUntrusted reads whether Copilot CLI would skip the hooks of a
// project (.github/hooks) when started in dir: in prompt mode it runs
// them only in a folder it trusts, --allow-all or not, and says nothing
// otherwise. It trusts a folder that is, or is inside, an absolute path
// listed under "trustedFolders" (or the older "trusted_folders") in
// config.json, which holds comments; a file that does not read, or a list
// that is not one of strings, trusts nothing. Trust given for one session
// (--trust-folder, the prompt's plain "Yes") and COPILOT_ALLOW_ALL=true
// in Copilot's own environment are not seen here.
func copilotUntrusted(getenv func(string) string, dir string) copilotTrust {
	home := getenv("COPILOT_HOME")
	if home == "" {
		h := getenv("HOME")
		if h == "" {
			return copilotTrust{why: "HOME is not set, so whether Copilot CLI trusts this folder is unknown; it skips the project's hooks in a folder it does not trust (the call then runs)"}
		}
		home = filepath.Join(h, ".copilot")
	}
	t := copilotTrust{config: filepath.Join(home, "config.json")}
	data, err := atomicfile.ReadFile(t.config, maxCopilotConfig)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.why = "Copilot CLI trusts no folder yet (it has no config.json), and skips the project's hooks here, silently (the call then runs)"
		return t
	case err != nil:
		t.why = "Copilot CLI's config.json cannot be read (" + err.Error() + "), so whether it trusts this folder is unknown; it skips the project's hooks in a folder it does not trust (the call then runs)"
		return t
	}
	folders, ok := copilotTrusted(data)
	if !ok {
		t.why = "Copilot CLI's config.json does not read as its list of trusted folders, so Copilot trusts no folder, and skips the project's hooks here (the call then runs)"
		return t
	}
	here := resolved(dir)
	for _, f := range folders {
		if !filepath.IsAbs(f) {
			continue // Copilot CLI ignores a relative path, or one with ~
		}
		if rel, err := filepath.Rel(resolved(f), here); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return copilotTrust{config: t.config}
		}
	}
	t.why = "Copilot CLI does not trust this folder, and skips the project's hooks in it, silently (the call then runs)"
	return t
}

// copilotHooksOff returns the project's Copilot CLI settings files
// (.github/copilot/settings.json and settings.local.json) that set
// "disableAllHooks": true: in a folder Copilot trusts, either switches off
// every hook, the user's own (~/.copilot/hooks) as well as the project's.
// A file that does not read switches nothing off.
func copilotHooksOff(root string) []string {
	var out []string
	for _, name := range []string{"settings.json", "settings.local.json"} {
		f := filepath.Join(root, ".github", "copilot", name)
		data, err := atomicfile.ReadFile(f, maxCopilotConfig)
		if err != nil {
			continue
		}
		var m map[string]any
		if json.Unmarshal(stripJSONC(data), &m) == nil && m["disableAllHooks"] == true {
			out = append(out, f)
		}
	}
	return out
}

// copilotTrusted returns the folders config.json lists as trusted, under
// either key; false when the file, or either list, does not read.
func copilotTrusted(data []byte) ([]string, bool) {
	var cfg map[string]json.RawMessage
	if json.Unmarshal(stripJSONC(data), &cfg) != nil {
		return nil, false
	}
	var out []string
	for _, key := range []string{"trustedFolders", "trusted_folders"} {
		raw, ok := cfg[key]
		if !ok {
			continue
		}
		var list []string
		if json.Unmarshal(raw, &list) != nil {
			return nil, false
		}
		out = append(out, list...)
	}
	return out, true
}

// jsonString is s as a JSON string, as it goes into a JSON file.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// resolved is a path made absolute and clean, with its links followed
// where it exists.
func resolved(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// stripJSONC turns JSON with comments (// and /* */) and trailing commas,
// as Copilot CLI writes and reads its config.json, into plain JSON; the
// strings are left as they are. Malformed input stays malformed.
func stripJSONC(data []byte) []byte {
	out := make([]byte, 0, len(data))
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			out = append(out, c)
			switch c {
			case '\\':
				if i+1 < len(data) {
					i++
					out = append(out, data[i])
				}
			case '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
			out = append(out, c)
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			if i < len(data) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := strings.Index(string(data[i+2:]), "*/")
			if end < 0 {
				return append(out, data[i:]...) // unterminated: left to fail
			}
			i += 2 + end + 1
			out = append(out, ' ')
		case c == ']' || c == '}':
			// A comma before the closing bracket, past any space, goes.
			j := len(out) - 1
			for j >= 0 && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
				j--
			}
			if j >= 0 && out[j] == ',' {
				out = append(out[:j], out[j+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
