package shell

import "strings"

// metadataOnly are commands that look at a file's name, type, size or
// mode, or move it about, without printing its contents: reading .env's
// metadata is fine. Writes and removals have rules of their own.
var metadataOnly = map[string]bool{
	"ls": true, "stat": true, "test": true, "[": true, "[[": true, "file": true, "du": true, "touch": true, "rm": true, "rmdir": true,
	"unlink": true, "mkdir": true, "chmod": true, "chown": true, "chgrp": true, "chattr": true, "realpath": true, "readlink": true,
	"basename": true, "dirname": true, "wc": true, "echo": true, "printf": true, "export": true, "cd": true, "pushd": true, "popd": true,
	"mv": true, "ln": true, "find": true, "type": true, "which": true, "command": true, "exit": true, "true": true, "false": true,
	"docker": true, "podman": true, "docker-compose": true, "kubectl": true, "helm": true, "touch-file": true, "lsattr": true, "getfacl": true, "setfacl": true, "sha256sum": true, "md5sum": true,
	"sha1sum": true, "shasum": true, "b2sum": true, "cksum": true, "git": true, "dotenv": true, "direnv": true, "op": true, "sops": true,
	"gpg": true, "age": true, "ssh": true, "ssh-add": true, "ssh-keygen": true, "scp": false, "npm": true, "yarn": true, "pnpm": true,
	"make": true, "go": true, "cargo": true, "pytest": true, "jest": true, "uv": true, "poetry": true, "pip": true, "trash": true,
}

// gitShowsContents are git's subcommands that print a file's contents.
var gitShowsContents = map[string]bool{"show": true, "diff": true, "log": true, "blame": true, "cat-file": true, "grep": true, "annotate": true, "archive": true}

// CommandReads returns the files a command reads the contents of: its
// input redirections, its operands (unless it only looks at metadata),
// and the files named by options that read them (-f FILE, -in FILE, if=,
// @FILE).
func CommandReads(c *Command) []string {
	out := append([]string(nil), c.Reads...)
	name := c.Name()
	switch {
	case name == "git":
		g := c.Git()
		if gitShowsContents[g.Sub] && (g.Sub != "log" || g.Args.On("--patch") || g.Args.On("-p") || g.Args.On("--p")) {
			for _, op := range g.Args.Operands {
				if _, p, ok := strings.Cut(op, ":"); ok && p != "" {
					op = p // HEAD:.env
				}
				out = append(out, op)
			}
		}
		return out
	case name == "dd":
		for _, a := range c.Args() {
			if strings.HasPrefix(a, "if=") {
				out = append(out, a[3:])
			}
		}
		return out
	case name == "source" || name == ".":
		if ops := c.Operands(); len(ops) > 0 {
			out = append(out, ops[0])
		}
		return out
	case name == "scp" || name == "rsync" || name == "cp" || name == "tar" || name == "zip" || name == "7z":
		// Copying a secret is reading it out.
	case metadataOnly[name]:
		return out
	}
	p := c.Opts()
	out = append(out, p.Operands...)
	for _, o := range p.Opts {
		switch {
		case o.Value != "":
			out = append(out, strings.TrimPrefix(o.Value, "@"))
		}
	}
	for _, a := range c.Args() {
		// curl -d @.env, -F file=@.env, --data-binary @x; openssl -in x
		if i := strings.Index(a, "@"); i >= 0 && (i == 0 || a[i-1] == '=') && i+1 < len(a) {
			out = append(out, a[i+1:])
		}
		if strings.HasPrefix(a, "if=") || strings.HasPrefix(a, "file=") {
			out = append(out, a[strings.IndexByte(a, '=')+1:])
		}
	}
	// Options the generic reading takes for flags, whose value is the next
	// word (grep -f FILE, openssl -in FILE, jq --rawfile x FILE).
	args := c.Args()
	for i, a := range args {
		if i+1 < len(args) && (a == "-f" || a == "-in" || a == "--file" || a == "-i" || a == "--rawfile" || a == "--slurpfile" || a == "-T" || a == "--upload-file" || a == "--env-file") {
			out = append(out, args[i+1])
		}
	}
	return out
}
