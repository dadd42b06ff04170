package guard

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/gitsentinel/sentinel/guard/internal/argspec"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/shell"
)

// Extracting an archive is a write of every file it holds. The guard
// reads the archive named on the command line, or the file on its stdin,
// for the names of its entries (archive_read.go), puts them where the
// program would (below -C DIR, with --strip-components, without the
// leading / and ../ the program drops) and checks each as a write; a
// symbolic link the archive makes is followed for the entries below it.
// Where the entries cannot be known (an archive on a pipe, one the line
// itself writes, a compression the guard does not read, one past the
// bounds), the extraction is a question only if it could reach a protected
// file: the target directory is inside one or holds one (the project root
// holds .git and .sentinel), or the program keeps absolute and ../ names.

// archiveCall is an archiver's command line, read.
type archiveCall struct {
	// extract says the command writes the entries out.
	extract bool
	// sources are the archive files named; stdin says the archive comes
	// on standard input.
	sources []string
	stdin   bool
	// dirs are the directories the entries land in, in order (tar -C
	// moves again relative to the last); "." when none is given.
	dirs []string
	// strip drops leading components (--strip-components).
	strip int
	// names says how the program treats its entries' names.
	names nameRule
	// unnamed says why the entries' names are not known from the archive
	// even where it can be read: a pattern rewrites them (--transform,
	// bsdtar -s), or they come from stdin (cpio -p).
	unnamed string
	// formats are the archive formats the program reads.
	formats []archiveFormat
	// creates are archive files the command writes (tar -c -f x.tar).
	creates []string
}

// nameRule is how a program turns an entry's name into a path.
type nameRule uint8

const (
	// namesTar drops a leading / and everything up to the last ..
	// component, as GNU tar and bsdtar do without -P.
	namesTar nameRule = iota
	// namesRaw keeps a name as it is: absolute names and .. stand (tar
	// -P, cpio, python -m tarfile, unzip -:).
	namesRaw
	// namesZip drops a leading / and every .. component (unzip, python
	// -m zipfile).
	namesZip
	// namesBase keeps only the base name (ar, unzip -j, 7z e).
	namesBase
	// namesEither is a program whose own rule the guard is not sure of
	// (7z): both the raw and the tar reading are checked.
	namesEither
)

// readArchiveCall reads an archiver's command line; ok is false for a
// command that is not one.
func readArchiveCall(c *shell.Command) (a archiveCall, ok bool) {
	name := c.Name()
	switch {
	case name == "tar" || name == "gtar" || name == "bsdtar":
		return readTar(c), true
	case name == "unzip":
		return readUnzip(c), true
	case name == "cpio":
		return readCpio(c), true
	case name == "ar":
		return readAr(c.Args()), true
	case name == "7z" || name == "7za" || name == "7zr" || name == "7zz":
		return read7z(c.Args()), true
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		return readPythonArchive(c.Args())
	}
	return a, false
}

// bsdTar reports whether a plain `tar` is libarchive's here: macOS and
// the BSDs ship it as tar.
func bsdTar() bool {
	switch runtime.GOOS {
	case "darwin", "freebsd", "openbsd", "netbsd", "dragonfly":
		return true
	}
	return false
}

func readTar(c *shell.Command) archiveCall {
	table := "tar"
	if c.Name() == "bsdtar" || c.Name() == "tar" && bsdTar() {
		table = "bsdtar"
	}
	p := argspec.For(table).Parse(c.Args())
	a := archiveCall{formats: []archiveFormat{formatTar}}
	if table == "bsdtar" {
		a.formats = append(a.formats, formatZip, formatCpio)
		if len(p.Values("s")) > 0 {
			a.unnamed = "its names are rewritten by a pattern"
		}
	}
	listing := p.On("list") || p.On("to-stdout") || p.On("to-command") || p.On("diff") || p.On("test-label")
	a.extract = p.On("extract") && !listing
	if len(p.Values("transform")) > 0 || len(p.Values("xform")) > 0 {
		a.unnamed = "its names are rewritten by a pattern"
	}
	if p.On("absolute-names") || p.On("absolute-paths") || p.On("insecure") {
		a.names = namesRaw
	}
	if v, ok := p.Value("strip-components"); ok {
		a.strip, _ = strconv.Atoi(v)
	}
	a.sources = p.Values("file")
	if len(a.sources) == 0 {
		a.stdin = true // GNU tar's default archive is stdin where no tape is set
	}
	dir := "."
	for _, o := range p.Opts {
		if o.ID == "directory" {
			dir = joinDir(dir, o.Value)
			a.dirs = append(a.dirs, dir)
		}
	}
	if len(a.dirs) == 0 {
		a.dirs = []string{"."}
	}
	if p.On("create") || p.On("append") || p.On("update") || p.On("catenate") || p.On("delete") {
		for _, f := range a.sources {
			if f != "-" {
				a.creates = append(a.creates, f)
			}
		}
	}
	return a
}

// joinDir is dir moved to next, as tar -C and cd move.
func joinDir(dir, next string) string {
	if next == "" {
		return dir
	}
	if filepath.IsAbs(next) || strings.HasPrefix(next, "~") {
		return next
	}
	return path.Join(dir, next)
}

func readUnzip(c *shell.Command) archiveCall {
	p := c.Opts()
	a := archiveCall{formats: []archiveFormat{formatZip}, names: namesZip}
	// -l, -v, -t, -z and zipinfo list; -p and -c print to stdout.
	a.extract = !(p.On("l") || p.On("v") || p.On("t") || p.On("z") || p.On("Z") || p.On("p") || p.On("c"))
	switch {
	case p.On("j"):
		a.names = namesBase
	case p.On(":"):
		a.names = namesRaw
	}
	if ops := p.Operands; len(ops) > 0 {
		a.sources = []string{ops[0]}
	}
	a.dirs = []string{"."}
	if v, ok := p.Value("d"); ok {
		a.dirs = []string{v}
	}
	return a
}

func readCpio(c *shell.Command) archiveCall {
	p := c.Opts()
	a := archiveCall{formats: []archiveFormat{formatCpio}, names: namesRaw, dirs: []string{"."}}
	if p.On("no-absolute-filenames") {
		a.names = namesTar
	}
	if v, ok := p.Value("directory"); ok {
		a.dirs = []string{v}
	}
	switch {
	case p.On("extract") && !p.On("list") && !p.On("to-stdout") && !p.On("only-verify-crc"):
		a.extract = true
		if v, ok := p.Value("file"); ok {
			a.sources = []string{v}
		} else if v, ok := p.Value("I"); ok {
			a.sources = []string{v}
		} else {
			a.stdin = true
		}
	case p.On("pass-through"):
		// find . | cpio -p DIR copies the files named on stdin into DIR:
		// names the guard does not know.
		a.extract, a.unnamed, a.names = true, "it copies the files named on its stdin", namesTar
		if len(p.Operands) > 0 {
			a.dirs = []string{p.Operands[0]}
		}
	case p.On("create"):
		if v, ok := p.Value("file"); ok {
			a.creates = []string{v}
		} else if v, ok := p.Value("O"); ok {
			a.creates = []string{v}
		}
	}
	return a
}

// readAr reads ar's command line by hand: its first word is the
// operation and its modifiers, with or without a dash (ar x lib.a, ar
// -xv lib.a), which no option table describes; --output DIR is where x
// extracts (binutils 2.34 and later).
func readAr(args []string) archiveCall {
	a := archiveCall{formats: []archiveFormat{formatAr}, names: namesBase, dirs: []string{"."}}
	var words []string
	for i := 0; i < len(args); i++ {
		switch w := args[i]; {
		case w == "--output" && i+1 < len(args):
			a.dirs = []string{args[i+1]}
			i++
		case strings.HasPrefix(w, "--output="):
			a.dirs = []string{strings.TrimPrefix(w, "--output=")}
		case strings.HasPrefix(w, "--"), strings.HasPrefix(w, "@"):
		default:
			words = append(words, w)
		}
	}
	if len(words) < 2 {
		return a
	}
	op := strings.TrimPrefix(words[0], "-")
	rest := words[1:]
	if strings.ContainsAny(op, "N") && len(rest) > 1 {
		rest = rest[1:] // the count before the archive
	}
	if strings.ContainsRune(op, 'P') {
		a.names = namesTar // full path names, as written
	}
	switch {
	case strings.ContainsRune(op, 'x'):
		a.extract = true
		a.sources = rest[:1]
	case strings.ContainsAny(op, "rqdm"):
		a.creates = rest[:1]
	}
	return a
}

// read7z reads 7-Zip's command line by hand: a command letter (x, e, a,
// l…) and switches that hold their values (-oDIR, -so, -spf), which no
// option table describes.
func read7z(args []string) archiveCall {
	a := archiveCall{formats: []archiveFormat{formatTar, formatZip}, names: namesEither, dirs: []string{"."}}
	var words []string
	stdout := false
switches:
	for i, w := range args {
		switch {
		case w == "--":
			words = append(words, args[i+1:]...)
			break switches
		case strings.HasPrefix(w, "-o"):
			a.dirs = []string{strings.TrimPrefix(w, "-o")}
		case w == "-so":
			stdout = true
		case strings.HasPrefix(w, "-si"):
			a.stdin = true
		case strings.HasPrefix(w, "-spf"):
			a.names = namesRaw
		case strings.HasPrefix(w, "-"):
		default:
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return a
	}
	switch words[0] {
	case "x", "e":
		a.extract = !stdout
		if words[0] == "e" && a.names != namesRaw {
			a.names = namesBase
		}
		if len(words) > 1 && !a.stdin {
			a.sources = words[1:2]
		}
	case "a", "u", "d", "rn":
		if len(words) > 1 {
			a.creates = words[1:2]
		}
	}
	return a
}

// readPythonArchive reads python -m tarfile and -m zipfile, whose -e
// extracts an archive (into the directory after it, or the working
// directory) and -c creates one. tarfile keeps absolute and ../ names
// unless a version's filter refuses them; zipfile drops them.
func readPythonArchive(args []string) (archiveCall, bool) {
	var a archiveCall
	module := ""
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "-m" && i+1 < len(args) {
			module, args = args[i+1], args[i+2:]
			break
		}
		if strings.HasPrefix(w, "-m") && len(w) > 2 {
			module, args = w[2:], args[i+1:]
			break
		}
		if !strings.HasPrefix(w, "-") || strings.ContainsAny(w, "c") && !strings.HasPrefix(w, "--") {
			return a, false // a script, or -c CODE
		}
	}
	switch module {
	case "tarfile":
		a = archiveCall{formats: []archiveFormat{formatTar}, names: namesRaw}
	case "zipfile":
		a = archiveCall{formats: []archiveFormat{formatZip}, names: namesZip}
	default:
		return a, false
	}
	var ops []string
	mode := ""
	for _, w := range args {
		switch {
		case w == "-e" || strings.HasPrefix("--extract", w) && len(w) > 3:
			mode = "e"
		case w == "-c" || strings.HasPrefix("--create", w) && len(w) > 3:
			mode = "c"
		case w == "-l" || w == "-t" || strings.HasPrefix("--list", w) && len(w) > 3 || strings.HasPrefix("--test", w) && len(w) > 3:
			mode = "l"
		case strings.HasPrefix(w, "-"):
		default:
			ops = append(ops, w)
		}
	}
	switch {
	case mode == "e" && len(ops) > 0:
		a.extract, a.sources, a.dirs = true, ops[:1], []string{"."}
		if len(ops) > 1 {
			a.dirs = ops[1:2]
		}
	case mode == "c" && len(ops) > 0:
		a.creates = ops[:1]
	}
	return a, true
}

// extraction is what an archiver's command writes, as far as the guard
// can tell.
type extraction struct {
	// paths are the files the entries write, and the targets of the links
	// they make, resolved.
	paths []string
	// hits are those a protection covers.
	hits []archiveHit
	// unknown says why the entries could not be listed, when they could
	// not; reach is then the protected location they could land in, or
	// nil where they cannot reach one.
	unknown string
	reach   *pathguard.PathFinding
	// dirs are the target directories, resolved: what a later command
	// finds below them, this one may have written.
	dirs []string
}

// archiveHit is one path an extraction writes that a protection covers.
type archiveHit struct {
	path string
	f    *pathguard.PathFinding
}

// maxArchiveChecks bounds the entries checked one by one; an archive with
// more is one whose entries are not known.
const maxArchiveChecks = 10000

// readExtraction is what c extracts, or nil for a command that extracts
// nothing. writtenBefore reports the files an earlier command of the line
// writes: an archive among them holds what the guard cannot see yet.
func readExtraction(c *shell.Command, e *pathguard.Env, writtenBefore func(string) bool) *extraction {
	a, ok := readArchiveCall(c)
	if !ok || !a.extract {
		return nil
	}
	x := &extraction{}
	for _, d := range a.dirs {
		x.dirs = append(x.dirs, e.Resolve(d))
	}
	var entries []archiveEntry
	unknown := a.unnamed
	switch {
	case unknown != "":
	case c.ArgsUnknown:
		unknown = "its name comes from input the guard cannot read"
	}
	sources := a.sources
	if unknown == "" && a.stdin {
		switch {
		case c.StdinDynamic:
			unknown = "it comes through a pipe"
		case len(c.Reads) > 0:
			sources = append(sources, c.Reads[0])
		default:
			unknown = "no archive file is named"
		}
	}
	for _, s := range sources {
		if unknown != "" {
			break
		}
		if s == "-" {
			if c.StdinDynamic || len(c.Reads) == 0 {
				unknown = "it comes on stdin"
				continue
			}
			s = c.Reads[0]
		}
		p := e.Resolve(s)
		switch {
		case unknownSource(s, p) || strings.ContainsAny(s, "*?[$`") || remoteArchive(s):
			unknown = "the guard cannot open " + s
			continue
		case writtenBefore(p):
			unknown = "this command line writes " + s + " first"
			continue
		}
		es, err := listArchive(p, a.formats)
		if errors.Is(err, fs.ErrNotExist) && c.Name() == "unzip" {
			// unzip tries the name with .zip after it.
			es, err = listArchive(p+".zip", a.formats)
		}
		if errors.Is(err, fs.ErrNotExist) {
			continue // no such archive: the program extracts nothing
		}
		if err != nil {
			unknown = err.Error()
			continue
		}
		entries = append(entries, es...)
	}
	if unknown == "" && len(entries) > maxArchiveChecks {
		unknown = "it holds more than " + strconv.Itoa(maxArchiveChecks) + " entries"
	}
	if unknown != "" {
		x.unknown = unknown
		for _, d := range x.dirs {
			if a.names == namesRaw {
				// Absolute and ../ names go anywhere.
				x.reach = &pathguard.PathFinding{ID: "write.archive-unread", Reason: "any file, as the program keeps absolute and ../ names"}
				break
			}
			if f := e.ProtectedWithin(d); f != nil {
				x.reach = f
				break
			}
		}
		return x
	}
	seen := map[string]bool{}
	// Entries share directories: each is resolved once. The last
	// component is not followed: the archiver replaces what is there.
	dirs := map[string]string{}
	check := func(p string, link bool) {
		parent := path.Dir(p)
		rd, ok := dirs[parent]
		if !ok {
			rd = e.Resolve(parent)
			dirs[parent] = rd
		}
		r := filepath.Join(rd, path.Base(p))
		if seen[r] {
			return
		}
		seen[r] = true
		x.paths = append(x.paths, r)
		if f := e.CheckResolved(r); f != nil && !(link && f.Critical) {
			// A link into a system directory (a virtualenv's python) writes
			// nothing there; one into git's hooks is a second name for them.
			x.hits = append(x.hits, archiveHit{path: p, f: f})
		}
	}
	paths := entryPaths(entries, a.names, a.strip)
	for _, d := range a.dirs {
		for _, w := range paths {
			check(joinDir(d, w.path), w.link)
		}
	}
	return x
}

// remoteArchive reports tar's host:file, an archive on another machine:
// a colon before any slash.
func remoteArchive(s string) bool {
	i := strings.IndexByte(s, ':')
	j := strings.IndexByte(s, '/')
	return i > 0 && (j < 0 || i < j)
}

// entryPath is a path an entry writes, relative to the target directory
// unless absolute; link marks the target of a link the archive makes.
type entryPath struct {
	path string
	link bool
}

// entryPaths turns entries into the paths they write under the program's
// name rule and --strip-components, following the links the archive
// itself makes: an entry below a symbolic link the archive created lands
// where the link points.
func entryPaths(entries []archiveEntry, rule nameRule, strip int) []entryPath {
	rules := []nameRule{rule}
	if rule == namesEither {
		rules = []nameRule{namesRaw, namesTar}
	}
	var out []entryPath
	for _, r := range rules {
		links := map[string]string{}
		for _, en := range entries {
			name, ok := entryName(en.name, r, strip)
			if !ok {
				continue
			}
			name = throughLinks(name, links)
			out = append(out, entryPath{path: name})
			switch en.kind {
			case entrySymlink:
				target := en.link
				if !path.IsAbs(target) {
					target = path.Join(path.Dir(name), target)
				}
				links[name] = target
				out = append(out, entryPath{path: target, link: true})
			case entryHardlink:
				// A hard link is a second name for the archive's own
				// entry, or for a file already there.
				if t, ok := entryName(en.link, r, strip); ok {
					out = append(out, entryPath{path: throughLinks(t, links), link: true})
				}
			}
		}
	}
	return out
}

// entryName is the path an entry's name writes under a name rule, with
// strip leading components dropped; ok is false for an entry the program
// skips (too few components to strip, nothing left).
func entryName(name string, rule nameRule, strip int) (string, bool) {
	name = strings.ReplaceAll(name, "\\", "/") // what DOS archivers wrote
	switch rule {
	case namesTar:
		name = strings.TrimLeft(name, "/")
		parts := strings.Split(name, "/")
		for i := len(parts) - 1; i >= 0; i-- {
			if parts[i] == ".." {
				parts = parts[i+1:]
				break
			}
		}
		name = strings.Join(parts, "/")
	case namesZip:
		var keep []string
		for _, p := range strings.Split(strings.TrimLeft(name, "/"), "/") {
			if p != ".." {
				keep = append(keep, p)
			}
		}
		name = strings.Join(keep, "/")
	case namesBase:
		name = path.Base(strings.TrimRight(name, "/"))
		if name == ".." || name == "/" {
			return "", false
		}
	}
	if strip > 0 {
		abs := strings.HasPrefix(name, "/")
		parts := strings.Split(strings.Trim(name, "/"), "/")
		if len(parts) <= strip {
			return "", false
		}
		name = strings.Join(parts[strip:], "/")
		if abs && rule == namesRaw {
			name = "/" + name
		}
	}
	name = path.Clean(name)
	if name == "." || name == "" {
		return "", false
	}
	return name, true
}

// throughLinks rewrites a path whose leading directories are links the
// archive made, a few links deep.
func throughLinks(name string, links map[string]string) string {
	if len(links) == 0 {
		return name
	}
	for hop := 0; hop < 8; hop++ {
		moved := false
		for i := len(name) - 1; i > 0; i-- {
			if name[i] != '/' {
				continue
			}
			if t, ok := links[name[:i]]; ok {
				name = path.Clean(t + name[i:])
				moved = true
				break
			}
		}
		if !moved {
			break
		}
	}
	return name
}

// archiveCreates are the archive files a command writes (tar -c -f x.tar,
// ar r lib.a, python -m zipfile -c out.zip).
func archiveCreates(c *shell.Command) []string {
	a, ok := readArchiveCall(c)
	if !ok {
		return nil
	}
	return a.creates
}
