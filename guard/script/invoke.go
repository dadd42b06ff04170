package script

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// pythonName matches python, python3, python3.12, python3.13t, pypy3.
var pythonName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(python|pypy)([0-9]+(\.[0-9]+)*)?[tdm]?$`)
})

// Invocation recognises an interpreter command line (argv
// stripped of wrappers) and returns the language and the code it runs
// from the command line, or fromStdin when it reads its program from
// standard input. ok is false for anything else, a run of a script file
// included (python3 x.py, awk -f prog.awk), which is not an inline
// program.
func Invocation(argv []string) (lang string, code string, fromStdin bool, ok bool) {
	if len(argv) == 0 {
		return "", "", false, false
	}
	name := path.Base(argv[0])
	args := argv[1:]
	if name == "busybox" && len(args) > 0 {
		name, args = args[0], args[1:]
	}
	switch {
	case pythonName().MatchString(name):
		return invokePython(args)
	case name == "node" || name == "nodejs":
		return invokeNode(args)
	case name == "bun":
		return invokeBun(args)
	case name == "deno":
		return invokeDeno(args)
	case name == "perl" || pythonLikeVersion(name, "perl"):
		return invokePerl(args)
	case name == "ruby" || pythonLikeVersion(name, "ruby"):
		return invokeRuby(args)
	case name == "php" || pythonLikeVersion(name, "php"):
		return invokePHP(args)
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "original-awk":
		return invokeAwk(args)
	}
	return "", "", false, false
}

// pythonLikeVersion matches perl5.36, ruby3.2, php8.2.
func pythonLikeVersion(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base)
	if !ok || rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if !(rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.') {
			return false
		}
	}
	return true
}

// invokePython reads python's options: -c CODE (also bundled, -Ic or
// -cCODE), -m runs a module, a script operand runs a file, - or nothing
// reads stdin.
func invokePython(args []string) (string, string, bool, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-":
			return "python", "", true, true
		case a == "--":
			if i+1 < len(args) {
				return "", "", false, false
			}
			return "python", "", true, true
		case strings.HasPrefix(a, "--"):
			if a == "--check-hash-based-pycs" {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'c':
					if j+1 < len(a) {
						return "python", a[j+1:], false, true
					}
					if i+1 < len(args) {
						return "python", args[i+1], false, true
					}
					return "", "", false, false
				case 'm':
					return "", "", false, false
				case 'W', 'X':
					if j+1 == len(a) {
						i++
					}
					j = len(a)
				}
			}
		default:
			return "", "", false, false // a script file
		}
	}
	return "python", "", true, true
}

// invokeNode reads node's -e/--eval and -p/--print (bundled -pe), - and
// no script (stdin); options that take a value are skipped with it.
func invokeNode(args []string) (string, string, bool, bool) {
	takesValue := map[string]bool{"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true,
		"-C": true, "--conditions": true, "--input-type": true, "--env-file": true, "--title": true, "--inspect-port": true, "--stack-size": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-pe" || a == "-ep":
			if i+1 < len(args) {
				return "javascript", args[i+1], false, true
			}
			return "", "", false, false
		case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
			return "javascript", a[strings.IndexByte(a, '=')+1:], false, true
		case a == "-":
			return "javascript", "", true, true
		case a == "--":
			if i+1 < len(args) {
				return "", "", false, false
			}
			return "javascript", "", true, true
		case takesValue[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return "", "", false, false
		}
	}
	return "javascript", "", true, true
}

// invokeBun reads bun -e/--eval and -p/--print; bun run - reads stdin.
func invokeBun(args []string) (string, string, bool, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print":
			if i+1 < len(args) {
				return "typescript", args[i+1], false, true
			}
			return "", "", false, false
		case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
			return "typescript", a[strings.IndexByte(a, '=')+1:], false, true
		case a == "run" && i+1 < len(args) && args[i+1] == "-", a == "-":
			return "typescript", "", true, true
		case strings.HasPrefix(a, "-"):
		default:
			return "", "", false, false
		}
	}
	return "", "", false, false
}

// invokeDeno reads deno eval CODE and deno run - (stdin).
func invokeDeno(args []string) (string, string, bool, bool) {
	if len(args) == 0 {
		return "", "", false, false
	}
	switch args[0] {
	case "eval":
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "--ext" || a == "--config" || a == "-c" || a == "--import-map" || a == "--env-file" || a == "--location" || a == "--v8-flags" || a == "--seed":
				i++
			case strings.HasPrefix(a, "-"):
			default:
				return "typescript", a, false, true
			}
		}
	case "run":
		for _, a := range args[1:] {
			if a == "-" {
				return "typescript", "", true, true
			}
			if !strings.HasPrefix(a, "-") {
				break
			}
		}
	}
	return "", "", false, false
}

// invokePerl reads perl's -e/-E (several joined by newlines, bundled as
// -ne, -pe, -lne); -i takes the rest of its bundle as an extension and
// -I, -M, -m, -x, -0, -l, -F, -C, -d, -D theirs. Without -e the first
// operand is a script, and none means stdin.
func invokePerl(args []string) (string, string, bool, bool) {
	var code []string
	have := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if have {
				break
			}
			if i+1 < len(args) && args[i+1] != "-" {
				return "", "", false, false
			}
			return "perl", "", true, true
		}
		if a == "-" {
			if have {
				break
			}
			return "perl", "", true, true
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 {
			if have {
				break // the arguments of the -e program
			}
			return "", "", false, false
		}
	bundle:
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'e', 'E':
				have = true
				if j+1 < len(a) {
					code = append(code, a[j+1:])
				} else if i+1 < len(args) {
					i++
					code = append(code, args[i])
				} else {
					return "", "", false, false
				}
				break bundle
			case 'l', '0':
				// An optional octal number, then more switches (-lne).
				for j+1 < len(a) && a[j+1] >= '0' && a[j+1] <= '7' {
					j++
				}
			case 'i', 'F', 'C', 'd', 'D', 'x', 'M', 'm':
				break bundle // the rest of the bundle is this option's value
			case 'I':
				if j+1 == len(a) {
					i++
				}
				break bundle
			case '-':
				break bundle // --help, --version
			}
		}
	}
	if !have {
		return "perl", "", true, true
	}
	return "perl", strings.Join(code, "\n"), false, true
}

// invokeRuby reads ruby's -e (several joined, bundled as -ne, -pe); -I,
// -r, -E, -C, -F, -W, -x, -0 and -l take values.
func invokeRuby(args []string) (string, string, bool, bool) {
	var code []string
	have := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || a == "--" {
			if have {
				break
			}
			if a == "--" && i+1 < len(args) {
				return "", "", false, false
			}
			return "ruby", "", true, true
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 {
			if have {
				break
			}
			return "", "", false, false
		}
		if strings.HasPrefix(a, "--") {
			continue // --disable=gems, --jit, --yjit
		}
	bundle:
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'e':
				have = true
				if j+1 < len(a) {
					code = append(code, a[j+1:])
				} else if i+1 < len(args) {
					i++
					code = append(code, args[i])
				} else {
					return "", "", false, false
				}
				break bundle
			case 'I', 'r', 'E', 'C', 'F', 'W', 'x', '0', 'i', 'K', 'T':
				if j+1 == len(a) && (a[j] == 'I' || a[j] == 'r' || a[j] == 'E' || a[j] == 'C') {
					i++
				}
				break bundle
			}
		}
	}
	if !have {
		return "ruby", "", true, true
	}
	return "ruby", strings.Join(code, "\n"), false, true
}

// invokePHP reads php -r CODE (and -B/-R/-E, code run per line), -f FILE
// and a script operand (files), and no script (stdin).
func invokePHP(args []string) (string, string, bool, bool) {
	var code []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-r" || a == "-B" || a == "-R" || a == "-E":
			if i+1 >= len(args) {
				return "", "", false, false
			}
			i++
			code = append(code, args[i])
		case a == "-d" || a == "-c" || a == "-z":
			i++
		case a == "-f" || a == "-F":
			return "", "", false, false
		case a == "--":
			i = len(args)
		case strings.HasPrefix(a, "-"):
			if a == "-a" {
				return "php", "", true, true
			}
		default:
			if len(code) > 0 {
				i = len(args) // arguments of the -r program
				continue
			}
			return "", "", false, false
		}
	}
	if len(code) == 0 {
		return "php", "", true, true
	}
	return "php", strings.Join(code, "\n"), false, true
}

// invokeAwk reads awk's program: the first operand that is not an
// option, or gawk's -e/--source; -f and -E name a program file, which is
// not inline.
func invokeAwk(args []string) (string, string, bool, bool) {
	var code []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "-E" || strings.HasPrefix(a, "--file") || strings.HasPrefix(a, "--exec") || strings.HasPrefix(a, "-f") && len(a) > 2:
			return "", "", false, false
		case a == "-e" || a == "--source":
			if i+1 >= len(args) {
				return "", "", false, false
			}
			i++
			code = append(code, args[i])
		case strings.HasPrefix(a, "--source="):
			code = append(code, strings.TrimPrefix(a, "--source="))
		case a == "-F" || a == "-v" || a == "-i" || a == "-l" || a == "--assign" || a == "--field-separator" || a == "--include" || a == "--load":
			i++
		case a == "--":
			if len(code) == 0 && i+1 < len(args) {
				return "awk", args[i+1], false, true
			}
			i = len(args)
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			if len(code) > 0 {
				i = len(args)
				continue
			}
			return "awk", a, false, true
		}
	}
	if len(code) == 0 {
		return "", "", false, false
	}
	return "awk", strings.Join(code, "\n"), false, true
}

// ScriptFile recognises an interpreter command line that runs a program
// file (python3 x.py, node x.js, ruby x.rb, perl x.pl, php x.php, php -f
// x.php, awk -f x.awk) and returns the language Effects reads it in, the
// file and the program's arguments. ok is false for anything else, an
// inline program or a module (python -m) included.
func ScriptFile(argv []string) (lang, file string, args []string, ok bool) {
	if len(argv) < 2 {
		return "", "", nil, false
	}
	name := path.Base(argv[0])
	rest := argv[1:]
	if name == "busybox" {
		name, rest = path.Base(rest[0]), rest[1:]
	}
	if _, _, _, inline := Invocation(append([]string{name}, rest...)); inline {
		return "", "", nil, false
	}
	// The options before the file that take a value in the next word.
	var takes map[string]bool
	switch {
	case pythonName().MatchString(name):
		lang, takes = "python", map[string]bool{"-W": true, "-X": true, "--check-hash-based-pycs": true}
	case name == "node" || name == "nodejs":
		lang, takes = "javascript", map[string]bool{"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true,
			"-C": true, "--conditions": true, "--input-type": true, "--env-file": true, "--title": true, "--inspect-port": true, "--stack-size": true}
	case name == "perl" || pythonLikeVersion(name, "perl"):
		lang, takes = "perl", map[string]bool{"-I": true}
	case name == "ruby" || pythonLikeVersion(name, "ruby"):
		lang, takes = "ruby", map[string]bool{"-I": true, "-r": true, "-E": true, "-C": true}
	case name == "php" || pythonLikeVersion(name, "php"):
		lang, takes = "php", map[string]bool{"-d": true, "-c": true, "-z": true}
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "original-awk":
		for i, a := range rest {
			if (a == "-f" || a == "--file") && i+1 < len(rest) {
				return "awk", rest[i+1], nil, true
			}
			if v, ok := strings.CutPrefix(a, "--file="); ok {
				return "awk", v, nil, true
			}
		}
		return "", "", nil, false
	default:
		return "", "", nil, false
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			if i+1 < len(rest) {
				return lang, rest[i+1], rest[i+2:], true
			}
			return "", "", nil, false
		case lang == "php" && a == "-f" && i+1 < len(rest):
			return lang, rest[i+1], rest[i+2:], true
		case lang == "python" && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "m"):
			return "", "", nil, false // a module
		case takes[a]:
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			return lang, a, rest[i+1:], true
		}
	}
	return "", "", nil, false
}
