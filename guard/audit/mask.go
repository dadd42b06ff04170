package audit

import (
	"regexp"
	"strings"
	"sync"
)

// masked stands in for a secret in the audit trail.
const masked = "***"

// secretPattern finds one kind of secret. The group named s is the secret
// itself and becomes masked; the rest of the match (a key's recognisable
// prefix, a flag) stays, so the trail still says what was there. When the
// pattern has a group named n, a match counts only if keep accepts that
// name.
type secretPattern struct {
	// hints are strings one of which a text holds for the pattern to
	// match it (in lower case when fold is set): a search for them is far
	// cheaper than the expression, and most commands hold none.
	hints []string
	fold  bool
	keep  func(name string) bool
	re    func() *regexp.Regexp
}

func pattern(expr string, fold bool, keep func(string) bool, hints ...string) secretPattern {
	// Compiled on first use: most records need few of the patterns, and
	// the guard's hot path, an allowed call that is not recorded, none.
	return secretPattern{hints: hints, fold: fold, keep: keep, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// wordPattern is a shell word: quoted (to the end of the text, when it
// was cut inside the quotes) or bare.
const wordPattern = `"(?:[^"\\]|\\.)*(?:"|\z)|'[^']*(?:'|\z)|(?:\\.|[^\s'"&;|<>()])+`

// secretPatterns find the secrets that have a shape of their own; Mask's
// scanners find the values of secret-named variables and options.
var secretPatterns = sync.OnceValue(func() []secretPattern {
	return []secretPattern{
		// A private key block, also one the size bound cut in half.
		pattern(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----(?P<s>(?s:.*?))(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|\z)`, false, nil, "PRIVATE KEY"),
		// Vendors' tokens, by their documented prefixes.
		pattern(`\b(?:AKIA|ASIA)(?P<s>[0-9A-Z]{16})\b`, false, nil, "AKIA", "ASIA"),                        // AWS access key ids
		pattern(`\bgh[pousr]_(?P<s>[A-Za-z0-9]{20,})`, false, nil, "ghp_", "gho_", "ghu_", "ghs_", "ghr_"), // GitHub tokens
		pattern(`\bgithub_pat_(?P<s>[A-Za-z0-9_]{20,})`, false, nil, "github_pat_"),                        // GitHub fine-grained tokens
		pattern(`\bsk-(?:ant-|proj-|svcacct-|admin-)?(?P<s>[A-Za-z0-9_\-]{16,})`, false, nil, "sk-"),       // OpenAI and Anthropic keys
		pattern(`\bxox[abposre]-(?P<s>[A-Za-z0-9\-]{8,})`, false, nil, "xox"),                              // Slack tokens
		pattern(`\b(?:sk|rk)_(?:live|test)_(?P<s>[A-Za-z0-9]{10,})`, false, nil, "_live_", "_test_"),       // Stripe secret and restricted keys
		pattern(`\bwhsec_(?P<s>[A-Za-z0-9]{16,})`, false, nil, "whsec_"),                                   // Stripe webhook secrets
		pattern(`\bAIza(?P<s>[0-9A-Za-z_\-]{30,})`, false, nil, "AIza"),                                    // Google API keys
		pattern(`\bglpat-(?P<s>[A-Za-z0-9_\-]{20,})`, false, nil, "glpat-"),                                // GitLab tokens
		pattern(`\bnpm_(?P<s>[A-Za-z0-9]{30,})`, false, nil, "npm_"),                                       // npm tokens
		pattern(`\bhf_(?P<s>[A-Za-z0-9]{30,})`, false, nil, "hf_"),                                         // Hugging Face tokens
		pattern(`\bhvs\.(?P<s>[A-Za-z0-9_\-]{20,})`, false, nil, "hvs."),                                   // Vault tokens
		pattern(`\beyJ(?P<s>[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*)`, false, nil, "eyJ"),  // JWTs
		// HTTP credentials.
		pattern(`(?i)\bauthorization\s*:\s*(?:(?:bearer|basic|token|bot|digest|negotiate)\s+)?(?P<s>[^\s'"\\]+)`, true, nil, "authorization"),
		pattern(`(?i)\bbearer\s+(?P<s>[A-Za-z0-9._~+/=\-]{8,})`, true, nil, "bearer"),
		pattern(`(?i)(?:^|[\s'"])(?:x-api-key|api-key|private-token|x-auth-token|x-access-token)\s*:\s*(?P<s>[^\s'"\\]+)`, true, nil, "api-key", "private-token", "auth-token", "access-token"),
		// URL userinfo: the user stays, the password goes.
		pattern(`\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@'"]*:(?P<s>[^\s/'"]*)@`, false, nil, "://"),
		// Passwords on command lines: mysql's attached -pSECRET, sshpass -p,
		// curl's user:password, openssl's pass:SECRET.
		pattern(`\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mysqlsh|mariadb[a-z\-]*)\b[^;&|\n]*?\s['"]?-p(?P<s>[^\s'";&|]+)`, false, nil, "mysql", "mariadb"),
		pattern(`\bsshpass\b[^;&|\n]*?\s-p\s*(?P<s>`+wordPattern+`)`, false, nil, "sshpass"),
		pattern(`\bcurl\b[^;&|\n]*?\s(?:-u\s*|-U\s*|--user[=\s]\s*|--proxy-user[=\s]\s*)['"]?[^\s:'"]*:(?P<s>[^\s'"]+)`, false, nil, "curl"),
		pattern(`(?:^|[\s'"=])pass:(?P<s>[^\s'"]+)`, false, nil, "pass:"),
		pattern(`\bredis-cli\b[^;&|\n]*?\s-a\s*(?P<s>`+wordPattern+`)`, false, nil, "redis-cli"),
		pattern(`\bssh-keygen\b[^;&|\n]*?\s-[NP]\s*(?P<s>`+wordPattern+`)`, false, nil, "ssh-keygen"),
		pattern(`\baws\s+configure\s+set\s+(?P<n>[A-Za-z0-9_.\-]+)\s+(?P<s>`+wordPattern+`)`, false, secretVar, "configure"),
		// name: SECRET and name = SECRET, as in YAML and INI files written
		// by a command (YAML wants the space after the colon, which keeps
		// URLs out).
		pattern(`(?:^|[^A-Za-z0-9_.\-])(?P<n>[A-Za-z_][A-Za-z0-9_.\-]*)(?::[ \t]+|[ \t]+=[ \t]*)(?P<s>[^\s'"]+)`, false, secretVar, ": ", ":\t", " =", "\t="),
		// "name": "SECRET" in JSON.
		pattern(`"(?P<n>[A-Za-z0-9_.\-]+)"\s*:\s*"(?P<s>(?:[^"\\]|\\.)*)"`, false, secretVar, `":`, `" :`),
	}
})

// Mask returns s with the secrets in it replaced by ***: vendors' API keys
// and tokens, JWTs, private key blocks, Authorization headers, passwords in
// URLs and on command lines, and the values of variables, options and JSON
// keys whose names say they hold a secret. It errs towards masking: a
// masked harmless value costs the trail a detail, a recorded secret leaks.
func Mask(s string) string {
	lower := ""
	for _, p := range secretPatterns() {
		text := s
		if p.fold {
			if lower == "" {
				lower = strings.ToLower(s)
			}
			text = lower
		}
		for _, h := range p.hints {
			if strings.Contains(text, h) {
				if m := p.apply(s); m != s {
					s, lower = m, ""
				}
				break
			}
		}
	}
	return maskAssignments(maskOptions(s))
}

// apply masks every match of p in s.
func (p secretPattern) apply(s string) string {
	re := p.re()
	si, ni := re.SubexpIndex("s"), re.SubexpIndex("n")
	var b strings.Builder
	done, pos := 0, 0 // done: s[:done] is in b; pos: where the search goes on
	for pos <= len(s) {
		m := re.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		start, end := m[2*si], m[2*si+1]
		if ni > 0 && (m[2*ni] < 0 || !p.keep(s[m[2*ni]:m[2*ni+1]])) {
			// Not a secret's name; a later one may start inside this
			// match, so the search resumes just past its start.
			pos = m[0] + 1
			continue
		}
		if start >= 0 && end > start && s[start:end] != masked && !reference(s[start:end]) {
			b.WriteString(s[done:start])
			b.WriteString(masked)
			done = end
		}
		pos = max(m[1], m[0]+1)
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// maskAssignments masks the value of every NAME=VALUE whose name says it
// holds a secret: a shell assignment, an environment option's value
// (-e API_KEY=x, --env=API_KEY=x), a query parameter (?access_token=x),
// npm's //host/:_authToken=x. A name starts after a character that cannot
// be part of one, and with a letter or an underscore.
func maskAssignments(s string) string {
	var b strings.Builder
	done := 0
	for i := strings.IndexByte(s, '='); i >= 0; {
		j := i
		for j > 0 && nameByte(s[j-1]) {
			j--
		}
		next := i + 1
		if j < i && (s[j] == '_' || letter(s[j])) && secretVar(s[j:i]) {
			end := wordEnd(s, i+1)
			if j > 0 && (s[j-1] == '\'' || s[j-1] == '"') && end == i+1+strings.IndexAny(s[i+1:]+" ", " \t\n") {
				// 'API_KEY=a b': the quotes that open before the name
				// close after the value.
				if k := strings.IndexByte(s[i+1:], s[j-1]); k >= 0 {
					end = i + 1 + k
				} else {
					end = len(s)
				}
			}
			if v := s[i+1 : end]; v != "" && v != masked && !reference(v) {
				b.WriteString(s[done : i+1])
				b.WriteString(masked)
				done = end
			}
			next = max(end, i+1)
		}
		k := strings.IndexByte(s[next:], '=')
		if k < 0 {
			break
		}
		i = next + k
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// maskOptions masks the value of every option whose name says it is a
// secret: --password=x, --password x, -storepass x. A separate value is
// the next word on the line, when it is not itself an option.
func maskOptions(s string) string {
	var b strings.Builder
	done := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '-' || i > 0 && !strings.ContainsRune(" \t\n'\"", rune(s[i-1])) {
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == '-' {
			j++
		}
		k := j
		for k < len(s) && (letter(s[k]) || k > j && (digit(s[k]) || s[k] == '-' || s[k] == '_')) {
			k++
		}
		if k == j || !secretFlag(s[j:k]) {
			i = max(k-1, i)
			continue
		}
		v := k
		switch {
		case k < len(s) && s[k] == '=':
			v = k + 1
		case k < len(s) && (s[k] == ' ' || s[k] == '\t'):
			for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
				v++
			}
			if v < len(s) && s[v] == '-' {
				i = v - 1
				continue // the next option, not a value
			}
		default:
			i = k - 1
			continue
		}
		end := wordEnd(s, v)
		if w := s[v:end]; w != "" && w != masked && !reference(w) {
			b.WriteString(s[done:v])
			b.WriteString(masked)
			done = end
		}
		i = max(end, v) - 1
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// wordEnd is where the shell word that starts at i ends: after its closing
// quote (or at the end of the text, cut inside it), or before whitespace,
// a quote or an operator. A command substitution holds no literal secret,
// and ends the word at once.
func wordEnd(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	switch s[i] {
	case '"':
		for k := i + 1; k < len(s); k++ {
			switch s[k] {
			case '\\':
				k++
			case '"':
				return k + 1
			}
		}
		return len(s)
	case '\'':
		if k := strings.IndexByte(s[i+1:], '\''); k >= 0 {
			return i + 1 + k + 1
		}
		return len(s)
	case '`':
		return i
	}
	if strings.HasPrefix(s[i:], "$(") {
		return i
	}
	k := i
	for k < len(s) && !strings.ContainsRune(" \t\n\r'\"&;|<>()`", rune(s[k])) {
		if s[k] == '\\' {
			k++ // an escaped character, a space too, is part of the word
		}
		k++
	}
	return min(k, len(s))
}

func letter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func digit(c byte) bool { return c >= '0' && c <= '9' }

// nameByte reports a byte of a variable's or parameter's name.
func nameByte(c byte) bool { return letter(c) || digit(c) || c == '_' || c == '.' || c == '-' }

// reference reports a value that only names another variable ($TOKEN,
// "${TOKEN}"): it holds no secret, and it tells the reader where one came
// from.
func reference(v string) bool {
	v = strings.TrimPrefix(v, `"`)
	v = strings.TrimSuffix(v, `"`)
	if !strings.HasPrefix(v, "$") || strings.HasPrefix(v, "$(") {
		return false
	}
	v = strings.Trim(v[1:], "{}")
	for _, r := range v {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return v != ""
}

// secretVar reports a variable, parameter or key name that says it holds a
// secret: one containing PASS, TOKEN, SECRET, KEY, CREDENTIAL or AUTH, in
// any case. AUTHOR and KEYBOARD are words of their own.
func secretVar(name string) bool {
	u := strings.ToUpper(name)
	u = strings.ReplaceAll(u, "AUTHOR", "")
	u = strings.ReplaceAll(u, "KEYBOARD", "")
	if u == "SIG" || strings.Contains(u, "SIGNATURE") {
		return true // presigned URLs' and SAS tokens' signatures
	}
	for _, w := range []string{"PASS", "PWD", "TOKEN", "SECRET", "KEY", "CREDENTIAL", "AUTH"} {
		if strings.Contains(u, w) && u != "PWD" && u != "OLDPWD" {
			return true
		}
	}
	return false
}

// secretFlag reports a command-line option whose value is a secret
// (--password, --api-key, -storepass, --client-secret), but not one that
// names where the secret is (--password-file, --password-stdin,
// --token-env).
func secretFlag(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"bypass", "passes", "passthrough", "pass-through", "tokens", "tokenizer"} {
		if strings.Contains(n, w) {
			return false // counts and switches, not secrets
		}
	}
	for _, suffix := range []string{"file", "stdin", "fd", "env", "path", "cmd", "command", "prompt", "dir"} {
		if strings.HasSuffix(n, "-"+suffix) || strings.HasSuffix(n, "_"+suffix) {
			return false
		}
	}
	for _, w := range []string{"pass", "token", "secret", "apikey", "api-key", "api_key", "access-key", "access_key", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
