// Package argspec holds each program's option table, git's global options
// and subcommands included, and the one parser that reads arguments against
// them. The guard reads each command's arguments the way the command itself
// parses them: short options bundled (-rf), a short option's value stuck to
// it (-bfeature is -b feature) or in the next word, long options with =,
// the unique prefix of a long option that GNU's getopt_long and git's
// parse-options accept (--forc is --force, --no-verif is --no-verify),
// git's --no-X negations, and the -- that ends options. One parser, one
// table per command; the rules ask about the parsed result, never about
// raw words, so a new spelling is handled everywhere at once.
package argspec

import (
	"slices"
	"strings"
	"sync"
)

// argKind is whether an option takes a value.
type argKind uint8

const (
	noArg  argKind = iota
	reqArg         // in the same word (-mmsg, --message=msg) or the next
	optArg         // only in the same word (-i.bak, --prune=now)
)

// Opt is one option of a command.
type Opt struct {
	ID    string // the first long name, or the short one
	short []byte
	long  []string
	arg   argKind
}

// Spec is how one command parses its arguments.
type Spec struct {
	opts    []*Opt
	Short   map[byte]*Opt
	Long    map[string]*Opt
	abbrev  bool // long options abbreviate to a unique prefix
	gitNeg  bool // --no-X negates X, and --X negates an option named no-X
	stop    bool // options end at the first operand (POSIX; wrappers)
	numeric bool // a word like -1 or -5 is an operand (kill, head)
	// oldStyle reads a first word without a dash as one-letter options,
	// whose values are the words that follow, in order (tar xzf a.tgz).
	oldStyle bool
}

// parseSpec builds a table from a compact description: options separated
// by spaces, names by |, a one-letter name is short, = marks a required
// value and ? a value that must be stuck to the option.
func parseSpec(desc string, abbrev, gitNeg, stop bool) *Spec {
	s := &Spec{Short: map[byte]*Opt{}, Long: map[string]*Opt{}, abbrev: abbrev, gitNeg: gitNeg, stop: stop}
	for _, field := range strings.Fields(desc) {
		o := &Opt{}
		switch {
		case strings.HasSuffix(field, "="):
			o.arg, field = reqArg, strings.TrimSuffix(field, "=")
		case strings.HasSuffix(field, "?"):
			o.arg, field = optArg, strings.TrimSuffix(field, "?")
		}
		for _, name := range strings.Split(field, "|") {
			if len(name) == 1 {
				o.short = append(o.short, name[0])
				s.Short[name[0]] = o
			} else {
				o.long = append(o.long, name)
				s.Long[name] = o
			}
		}
		if len(o.long) > 0 {
			o.ID = o.long[0]
		} else {
			o.ID = string(o.short[0])
		}
		s.opts = append(s.opts, o)
	}
	return s
}

// parsedOpt is one option as given.
type parsedOpt struct {
	ID    string
	Value string
	// neg marks a negation: --no-force, or --verify of an option named
	// no-verify.
	neg bool
	// alts are the other options an ambiguous abbreviation could be; git
	// refuses it, and the guard reads it as any of them.
	alts []string
	// unknown marks an option the table does not have.
	unknown bool
	Raw     string
}

// Parsed is a command's arguments read against its table.
type Parsed struct {
	Opts     []parsedOpt
	Operands []string
	// AfterDash is the index in operands of the first operand after "--",
	// or -1.
	AfterDash int
}

// On reports whether the option is in effect: given, and not negated by a
// later occurrence.
func (p *Parsed) On(id string) bool {
	state := false
	for _, o := range p.Opts {
		if o.ID == id || slices.Contains(o.alts, id) {
			state = !o.neg || slices.Contains(o.alts, id)
		}
	}
	return state
}

// Off reports an option explicitly negated and not given again later.
func (p *Parsed) Off(id string) bool {
	state := false
	for _, o := range p.Opts {
		if o.ID == id {
			state = o.neg
		}
	}
	return state
}

// Value returns the last value given to the option.
func (p *Parsed) Value(id string) (string, bool) {
	v, ok := "", false
	for _, o := range p.Opts {
		if o.ID == id && !o.neg {
			v, ok = o.Value, true
		}
	}
	return v, ok
}

// Values returns every value given to the option.
func (p *Parsed) Values(id string) []string {
	var out []string
	for _, o := range p.Opts {
		if o.ID == id && !o.neg {
			out = append(out, o.Value)
		}
	}
	return out
}

// lookupLong finds a long option by its name as written: exactly, as a
// git negation, or (where the command allows) as a unique prefix.
func (s *Spec) lookupLong(name string) (o *Opt, neg bool, alts []string) {
	if o := s.Long[name]; o != nil {
		return o, false, nil
	}
	if s.gitNeg {
		if base, ok := strings.CutPrefix(name, "no-"); ok && s.Long[base] != nil {
			return s.Long[base], true, nil
		}
		if o := s.Long["no-"+name]; o != nil {
			return o, true, nil
		}
	}
	if !s.abbrev || name == "" {
		return nil, false, nil
	}
	type cand struct {
		o   *Opt
		neg bool
	}
	var cands []cand
	seen := map[*Opt]bool{}
	for _, o := range s.opts {
		for _, l := range o.long {
			match, isNeg := strings.HasPrefix(l, name), false
			if !match && s.gitNeg {
				if base, ok := strings.CutPrefix(l, "no-"); ok && strings.HasPrefix(base, name) {
					match, isNeg = true, true
				} else if !ok && strings.HasPrefix("no-"+l, name) && strings.HasPrefix(name, "no-") {
					match, isNeg = true, true
				}
			}
			if match && !seen[o] {
				seen[o] = true
				cands = append(cands, cand{o, isNeg})
			}
		}
	}
	switch len(cands) {
	case 0:
		return nil, false, nil
	case 1:
		return cands[0].o, cands[0].neg, nil
	}
	for _, c := range cands[1:] {
		alts = append(alts, c.o.ID)
	}
	return cands[0].o, false, alts
}

// Parse reads args against the table.
func (s *Spec) Parse(args []string) *Parsed {
	p := &Parsed{AfterDash: -1}
	if s.oldStyle && len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		args = s.expandOldStyle(args)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			p.AfterDash = len(p.Operands)
			p.Operands = append(p.Operands, args[i+1:]...)
			return p
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			o, neg, alts := s.lookupLong(name)
			if o == nil {
				p.Opts = append(p.Opts, parsedOpt{ID: "--" + name, Value: val, unknown: true, Raw: a})
				continue
			}
			po := parsedOpt{ID: o.ID, neg: neg, alts: alts, Raw: a}
			switch {
			case hasVal:
				po.Value = val
			case o.arg == reqArg && !neg && i+1 < len(args):
				i++
				po.Value = args[i]
			}
			p.Opts = append(p.Opts, po)
		case len(a) > 1 && a[0] == '-' && !(s.numeric && isNumber(a[1:])):
			for j := 1; j < len(a); j++ {
				o := s.Short[a[j]]
				if o == nil {
					p.Opts = append(p.Opts, parsedOpt{ID: "-" + string(a[j]), unknown: true, Raw: a})
					continue
				}
				po := parsedOpt{ID: o.ID, Raw: a}
				if o.arg != noArg {
					switch {
					case j+1 < len(a):
						po.Value = a[j+1:]
					case o.arg == reqArg && i+1 < len(args):
						i++
						po.Value = args[i]
					}
					p.Opts = append(p.Opts, po)
					break
				}
				p.Opts = append(p.Opts, po)
			}
		default:
			if s.stop {
				p.Operands = append(p.Operands, args[i:]...)
				return p
			}
			p.Operands = append(p.Operands, a)
		}
	}
	return p
}

// expandOldStyle rewrites tar's old-style first word: each letter is an
// option, and those that take a value take the next words in turn, so
// that tar xfC a.tar dir is tar -x -f a.tar -C dir.
func (s *Spec) expandOldStyle(args []string) []string {
	out := make([]string, 0, len(args)+len(args[0]))
	rest := args[1:]
	for i := 0; i < len(args[0]); i++ {
		o := s.Short[args[0][i]]
		out = append(out, "-"+args[0][i:i+1])
		if o != nil && o.arg == reqArg && len(rest) > 0 {
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	return append(out, rest...)
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// specs are the tables, built on first use so that a guard run pays only
// for the commands it meets.
var specs = sync.OnceValue(func() *specTable {
	m := &specTable{descs: map[string]specDesc{}}
	gnu := func(name, desc string) { m.descs[name] = specDesc{desc: desc, abbrev: true} }
	posix := func(name, desc string) { m.descs[name] = specDesc{desc: desc, abbrev: true, stop: true} }
	gnu("rm", "f|force i I interactive? one-file-system no-preserve-root preserve-root? r|R|recursive d|dir v|verbose help version")
	gnu("cp", "a|archive attributes-only backup? b copy-contents d f|force i|interactive H l|link L|dereference n|no-clobber P|no-dereference p preserve? no-preserve= parents R|r|recursive reflink? remove-destination sparse= strip-trailing-slashes s|symbolic-link S|suffix= t|target-directory= T|no-target-directory u|update? v|verbose x|one-file-system Z context? debug keep-directory-symlink")
	gnu("mv", "b backup? f|force i|interactive n|no-clobber S|suffix= t|target-directory= T|no-target-directory u|update? v|verbose exchange strip-trailing-slashes Z|context debug no-copy")
	gnu("ln", "b backup? d|F|directory f|force i|interactive L|logical n|no-dereference P|physical r|relative s|symbolic S|suffix= t|target-directory= T|no-target-directory v|verbose")
	gnu("install", "b backup? c C|compare d|directory D g|group= m|mode= o|owner= p|preserve-timestamps s|strip strip-program= S|suffix= t|target-directory= T|no-target-directory v|verbose preserve-context Z|context?")
	gnu("tee", "a|append i|ignore-interrupts p output-error?")
	gnu("patch", "b|backup B|prefix= binary c|context d|directory= D|ifdef= dry-run e|ed E|remove-empty-files f|force F|fuzz= g|get= i|input= l|ignore-whitespace merge? n|normal N|forward o|output= p|strip= posix quoting-style= r|reject-file= R|reverse s|quiet|silent t|batch T|set-time u|unified v|version V|version-control= x|debug= Y|basename-prefix= z|suffix= Z|set-utc backup-if-mismatch no-backup-if-mismatch read-only= reject-format= follow-symlinks verbose help")
	gnu("sed", "n|quiet|silent debug e|expression= f|file= follow-symlinks i|in-place? l|line-length= posix E|r|regexp-extended s|separate sandbox u|unbuffered z|null-data")
	gnu("shred", "f|force n|iterations= random-source= s|size= u remove? v|verbose x|exact z|zero")
	gnu("truncate", "c|no-create o|io-blocks r|reference= s|size=")
	gnu("touch", "a c|no-create d|date= f h|no-dereference m r|reference= t= time=")
	gnu("rmdir", "ignore-fail-on-non-empty p|parents v|verbose")
	gnu("unlink", "")
	gnu("chmod", "c|changes f|silent|quiet v|verbose no-preserve-root preserve-root reference= R|recursive")
	gnu("chown", "c|changes f|silent|quiet v|verbose dereference h|no-dereference from= no-preserve-root preserve-root reference= R|recursive H L P")
	gnu("chgrp", "c|changes f|silent|quiet v|verbose dereference h|no-dereference no-preserve-root preserve-root reference= R|recursive H L P")
	gnu("kill", "s|signal= n= l|list L|table q|queue= timeout=")
	kill := m.descs["kill"]
	kill.numeric = true
	m.descs["kill"] = kill
	gnu("kubectl", "n|namespace= context= kubeconfig= cluster= user= l|selector= o|output= f|filename= k|kustomize= A|all-namespaces s|server= token= as= grace-period= timeout=")
	m.descs["oc"] = m.descs["kubectl"]
	gnu("helm", "n|namespace= kube-context= kubeconfig= f|values= set= version= o|output=")
	gnu("aws", "profile= region= output= endpoint-url= query= color= cli-input-json= ca-bundle= debug no-verify-ssl no-paginate no-sign-request")
	gnu("gcloud", "project= account= configuration= format= verbosity= impersonate-service-account= quiet q")
	gnu("gh", "R|repo= X|method= H|header= F|field= f|raw-field= hostname= q|jq= t|template= input= i|include")
	gnu("redis-cli", "h= p= a= n= u= user= pass= s= tls")
	gnu("terraform", "chdir= var= var-file= target= state=")
	gnu("su", "c|command= s|shell= l|login m|p|preserve-environment g|group= G|supp-group= f|fast P|pty session-command= w|whitelist-environment= u|user=")
	posix("ssh", "4 6 A a C f G g K k M N n q s T t V v X x Y y B= b= c= D= E= e= F= I= i= J= L= l= m= O= o= P= p= Q= R= S= W= w=")
	posix("docker-run", "a|attach= add-host= cap-add= cap-drop= cidfile= cpus= c|cpu-shares= d|detach device= dns= e|env= env-file= entrypoint= gpus= h|hostname= health-cmd= i|interactive init ipc= l|label= label-file= log-driver= m|memory= mount= name= network= net= pid= platform= privileged P|publish-all p|publish= pull= q|quiet restart= rm runtime= security-opt= shm-size= stop-signal= t|tty tmpfs= u|user= ulimit= v|volume= w|workdir=")
	posix("docker-exec", "d|detach detach-keys= e|env= env-file= i|interactive privileged t|tty u|user= w|workdir=")
	posix("xargs", "0|null a|arg-file= d|delimiter= E= e|eof? I= i|replace? L= l|max-lines? n|max-args= o|open-tty P|max-procs= p|interactive process-slot-var= r|no-run-if-empty s|max-chars= show-limits t|verbose x|exit")
	posix("env", "a|argv0= i|ignore-environment 0|null u|unset= C|chdir= S|split-string= block-signal? default-signal? ignore-signal? list-signal-handling v|debug")
	posix("sudo", "A|askpass b|background C|close-from= D|chdir= E|preserve-env? e|edit g|group= H|set-home h|host= i|login K|remove-timestamp k|reset-timestamp l|list n|non-interactive P|preserve-groups p|prompt= R|chroot= r|role= S|stdin s|shell t|type= T|command-timeout= U|other-user= u|user= V|version v|validate")
	posix("doas", "u= C= n s L")
	posix("timeout", "f|foreground k|kill-after= p|preserve-status s|signal= v|verbose")
	posix("nice", "n|adjustment=")
	posix("nohup", "")
	posix("stdbuf", "i|input= o|output= e|error=")
	posix("ionice", "c|class= n|classdata= p|pid= P|pgid= t|ignore u|uid=")
	posix("time", "f|format= o|output= a|append p|portability v|verbose q|quiet")
	posix("watch", "b|beep c|color C|no-color d|differences? e|errexit g|chgexit n|interval= p|precise t|no-title w|no-wrap x|exec q|equexit= r|no-rerun s|shotsfile=")
	posix("setsid", "c|ctty f|fork w|wait")
	posix("flock", "s|shared x|e|exclusive u|unlock n|nb|nonblock w|wait|timeout= o|close E|conflict-exit-code= F|no-fork c|command=")
	posix("unbuffer", "p")
	posix("script", "a|append c|command= E|echo= e|return f|flush force B|log-io= I|log-in= O|log-out= T|log-timing= m|logging-format= o|output-limit= q|quiet t|timing?")
	// Shells: -c takes no value; the script is the first operand.
	for name, d := range archiveDescs {
		m.descs[name] = d
	}
	m.descs["gtar"] = m.descs["tar"]
	for _, sh := range []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh"} {
		posix(sh, "c s i l login e x u v n f a b h m p t k o= O= rcfile= init-file= norc noprofile posix restricted r noediting pretty-print debugger dump-strings D dump-po-strings verbose version help")
	}
	return m
})

// Table is a set of commands' option tables, each parsed from its
// description on first use: a guard run meets a few of the dozens of
// commands described, and parsing them all cost a fifth of a typical run.
type specTable struct {
	mu     sync.Mutex
	descs  map[string]specDesc
	parsed map[string]*Spec
}

// Desc is one command's table as written, and how to read it.
type specDesc struct {
	desc                 string
	abbrev, gitNeg, stop bool
	numeric              bool // a word like -1 is an operand, as cmdSpec.numeric
	oldStyle             bool // as Spec.oldStyle
}

// get returns the table of a command, or nil.
func (t *specTable) Get(name string) *Spec {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.parsed[name]; ok {
		return s
	}
	d, ok := t.descs[name]
	if !ok {
		return nil
	}
	s := parseSpec(d.desc, d.abbrev, d.gitNeg, d.stop)
	s.numeric, s.oldStyle = d.numeric, d.oldStyle
	if t.parsed == nil {
		t.parsed = map[string]*Spec{}
	}
	t.parsed[name] = s
	return s
}

// For returns the table of a command, or nil.
func For(name string) *Spec {
	if s := specs().Get(name); s != nil {
		return s
	}
	return nil
}
