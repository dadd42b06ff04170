package guard

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// tarEntry is one entry of a test archive: a file, or a link when link is
// set (hard when hard).
type tarEntry struct {
	name, link string
	hard       bool
}

func tarBytes(t *testing.T, compress bool, entries ...tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w = &buf
	var tw *tar.Writer
	var zw *gzip.Writer
	if compress {
		zw = gzip.NewWriter(w)
		tw = tar.NewWriter(zw)
	} else {
		tw = tar.NewWriter(w)
	}
	for _, en := range entries {
		h := &tar.Header{Name: en.name, Mode: 0o644, Typeflag: tar.TypeReg, Format: tar.FormatGNU}
		body := "x\n"
		switch {
		case en.link != "" && en.hard:
			h.Typeflag, h.Linkname, body = tar.TypeLink, en.link, ""
		case en.link != "":
			h.Typeflag, h.Linkname, body = tar.TypeSymlink, en.link, ""
		}
		h.Size = int64(len(body))
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		zw.Close()
	}
	return buf.Bytes()
}

func zipBytes(t *testing.T, entries ...tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, en := range entries {
		h := &zip.FileHeader{Name: en.name}
		body := "x\n"
		if en.link != "" {
			h.SetMode(os.ModeSymlink | 0o777)
			body = en.link
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cpioBytes is a cpio archive in the newc format.
func cpioBytes(names ...string) []byte {
	var b bytes.Buffer
	pad := func() {
		for b.Len()%4 != 0 {
			b.WriteByte(0)
		}
	}
	for i, n := range append(names, "TRAILER!!!") {
		data := "x\n"
		if n == "TRAILER!!!" {
			data = ""
		}
		fmt.Fprintf(&b, "070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x", i+1, 0o100644, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(n)+1, 0)
		b.WriteString(n + "\x00")
		pad()
		b.WriteString(data)
		pad()
	}
	return b.Bytes()
}

// arBytes is an ar archive, with GNU's long names table for a name
// longer than 15 bytes.
func arBytes(names ...string) []byte {
	var b bytes.Buffer
	b.WriteString("!<arch>\n")
	var long strings.Builder
	var heads []string
	for _, n := range names {
		if len(n) > 15 {
			heads = append(heads, fmt.Sprintf("/%d", long.Len()))
			long.WriteString(n + "/\n")
		} else {
			heads = append(heads, n+"/")
		}
	}
	member := func(name, data string) {
		fmt.Fprintf(&b, "%-16s%-12s%-6s%-6s%-8s%-10d`\n", name, "0", "0", "0", "644", len(data))
		b.WriteString(data)
		if len(data)%2 == 1 {
			b.WriteByte('\n')
		}
	}
	if long.Len() > 0 {
		member("//", long.String())
	}
	for _, h := range heads {
		member(h, "x\n")
	}
	return b.Bytes()
}

// hookTarBz2 is a tar.bz2 of .git/hooks/pre-commit, made by Python's
// tarfile: Go writes no bzip2.
const hookTarBz2 = "QlpoOTFBWSZTWTGXYXsAAFz9gMmQAAhAA/eAAAhq6t5ACAggAFRCnqHqAAep6gG1G1BJRDIAAAAH3c41CB8KEIr6sjLppHoEMQwlzob3U4THNBBSECSu1VPQyCxMnXZn8+lkCDG0Yu49PBBEQD8XckU4UJAxl2F7"

// TestArchivesAreReadForWhatTheyWrite: extracting an archive is a write
// of every entry it holds, where the program puts it: tar, bsdtar,
// busybox tar, unzip, 7z, cpio, ar and python -m tarfile/zipfile cannot
// write sentinel's configuration or git's hooks where a direct write is
// refused. An archive whose entries the guard cannot list is a question
// (a denial at strict) where they could land in a protected location,
// and let be in a directory of its own.
func TestArchivesAreReadForWhatTheyWrite(t *testing.T) {
	e := guardtest.Env(t)
	tmp := e.Temp[0]
	os.MkdirAll(filepath.Join(e.Cwd, ".git", "hooks"), 0o755)
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(e.Cwd, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cfg.tar", tarBytes(t, false, tarEntry{name: "pkg/a.go"}, tarEntry{name: ".sentinel/config.toml"}))
	write("hook.tgz", tarBytes(t, true, tarEntry{name: "x/hooks/pre-commit"}))
	write("hook2.tgz", tarBytes(t, true, tarEntry{name: "hooks/pre-commit"}))
	write("nested.tgz", tarBytes(t, true, tarEntry{name: "pkg/.git/hooks/pre-commit"}))
	write("ok.tgz", tarBytes(t, true, tarEntry{name: "src/main.go"}, tarEntry{name: "bin/python3", link: "/usr/bin/python3"}))
	write("through.tar", tarBytes(t, false, tarEntry{name: "d", link: ".git"}, tarEntry{name: "d/hooks/pre-push"}))
	write("link.tar", tarBytes(t, false, tarEntry{name: "notes.txt", link: ".git/hooks/pre-commit"}))
	write("hard.tar", tarBytes(t, false, tarEntry{name: "cfg", link: ".sentinel/config.toml", hard: true}))
	write("abs.tar", tarBytes(t, false, tarEntry{name: "/etc/cron.d/job"}, tarEntry{name: "../../.bashrc"}))
	write("dotdot.tar", tarBytes(t, false, tarEntry{name: "../../.bashrc"}))
	write("x.tar.xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0, 1, 2, 3})
	bz, _ := base64.StdEncoding.DecodeString(hookTarBz2)
	write("hook.tar.bz2", bz)
	write("notar.tar", bytes.Repeat([]byte("not a tar archive\n"), 64))
	write("cfg.zip", zipBytes(t, tarEntry{name: "a/../.sentinel/baseline.json"}))
	write("ok.zip", zipBytes(t, tarEntry{name: "docs/readme.md"}))
	write("deep.zip", zipBytes(t, tarEntry{name: "x/y/pre-commit"}))
	write("zlink.zip", zipBytes(t, tarEntry{name: "l", link: ".claude"}, tarEntry{name: "l/settings.json"}))
	write("a.7z", []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c, 0, 4})
	write("cfg.cpio", cpioBytes(".sentinel/config.toml"))
	write("ok.cpio", cpioBytes("src/a.c"))
	write("lib.a", arBytes("pre-commit", "a_rather_long_member_name.o"))
	for _, tc := range []struct {
		cmd  string
		want verdict.Verdict
	}{
		// tar, each spelling of extract and its file.
		{"tar -xf cfg.tar", verdict.Deny},
		{"tar xf cfg.tar", verdict.Deny},
		{"tar xvf cfg.tar", verdict.Deny},
		{"tar -x -v -f cfg.tar", verdict.Deny},
		{"tar --extract --file=cfg.tar", verdict.Deny},
		{"tar --extr --file cfg.tar", verdict.Deny},
		{"tar -xvzf nested.tgz", verdict.Deny},
		{"tar -C .git -xzf hook2.tgz", verdict.Deny},
		{"tar xzfC hook2.tgz .git", verdict.Deny},
		{"tar -xzf hook2.tgz --directory=.git", verdict.Deny},
		{"tar -xzf hook.tgz -C .git/hooks --strip-components=2", verdict.Deny},
		{"tar -xzf hook.tgz -C .git/hooks --strip=2", verdict.Deny},
		{"tar -xf hook.tar.bz2", verdict.Deny},
		{"tar -xjf hook.tar.bz2", verdict.Deny},
		{"tar -xf through.tar", verdict.Deny},
		{"tar -xf link.tar", verdict.Deny},
		{"tar -xf hard.tar", verdict.Deny},
		{"tar -xPf abs.tar", verdict.Deny},
		{"tar -xf dotdot.tar --absolute-names", verdict.Deny},
		{"tar -x < cfg.tar", verdict.Deny},
		{"tar -xf - < cfg.tar", verdict.Deny},
		{"busybox tar -xf cfg.tar", verdict.Deny},
		{"sudo tar -xf cfg.tar", verdict.Deny},
		{"tar -cf .git/hooks/pre-commit src", verdict.Deny},
		{"git archive -o .git/hooks/pre-commit HEAD", verdict.Deny},
		{"git archive --output=.sentinel/baseline.json HEAD", verdict.Deny},
		// Archives whose entries are not known: a question where they
		// could land on git's or sentinel's files.
		{"git archive HEAD | tar -x", verdict.Ask},
		{"curl -sL https://example.com/x.tgz | tar -xz", verdict.Ask},
		{"tar -xJf x.tar.xz", verdict.Ask},
		{"tar -xf notar.tar", verdict.Ask},
		{"tar -xf cfg.tar --transform 's,^,x/,'", verdict.Ask},
		{"cp /srv/incoming/x.tar got.tar; tar -xf got.tar", verdict.Ask},
		{"tar -xf <(cat cfg.tar)", verdict.Ask},
		{"tar -xJf x.tar.xz -C .git", verdict.Ask},
		{"tar -xJf x.tar.xz -C " + e.Home, verdict.Ask},
		{"tar -xJPf x.tar.xz -C " + tmp + "/out", verdict.Ask},
		{"tar -xf got.tar; ./install.sh", verdict.Allow}, // got.tar is not there: tar extracts nothing
		// unzip, bsdtar, 7z.
		{"unzip cfg.zip", verdict.Deny},
		{"unzip cfg", verdict.Deny},
		{"unzip -o -q cfg.zip", verdict.Deny},
		{"unzip ok.zip -d .git/hooks", verdict.Deny},
		{"unzip -j deep.zip -d .git/hooks", verdict.Deny},
		{"unzip -qjd .git/hooks deep.zip", verdict.Deny},
		{"unzip zlink.zip", verdict.Deny},
		{"bsdtar -xf cfg.zip", verdict.Deny},
		{"bsdtar xf cfg.tar", verdict.Deny},
		{"7z x cfg.zip", verdict.Deny},
		{"7z x ok.zip -o.git/hooks", verdict.Deny},
		{"7z x a.7z", verdict.Ask},
		// cpio, ar, python's modules.
		{"cpio -id < cfg.cpio", verdict.Deny},
		{"cpio -i -F cfg.cpio", verdict.Deny},
		{"cpio --extract --file=cfg.cpio", verdict.Deny},
		{"zcat x.cpio.gz | cpio -i", verdict.Ask},
		{"find . | cpio -pdm .git/hooks", verdict.Ask},
		{"ar x lib.a --output=.git/hooks", verdict.Deny},
		{"ar xv --output .git/hooks lib.a", verdict.Deny},
		{"python3 -m tarfile -e cfg.tar", verdict.Deny},
		{"python3 -m tarfile --extract hook2.tgz .git", verdict.Deny},
		{"python3 -m zipfile -e cfg.zip .", verdict.Deny},
		// What writes nothing protected, or nothing at all.
		{"tar -xzf ok.tgz", verdict.Allow},
		{"tar -xzf hook.tgz", verdict.Allow},
		{"tar -xzf hook.tgz -C .git/hooks --strip-components=3", verdict.Allow},
		{"tar -xf abs.tar", verdict.Allow},
		{"tar -xf dotdot.tar", verdict.Allow},
		{"tar -tf cfg.tar", verdict.Allow},
		{"tar tvf cfg.tar", verdict.Allow},
		{"tar -xOf cfg.tar", verdict.Allow},
		{"tar -xf cfg.tar --to-stdout", verdict.Allow},
		{"tar -xf missing.tar", verdict.Allow},
		{"tar -C .git -xzf hook.tgz", verdict.Allow}, // .git/x/hooks is not git's
		{"tar -czf dist.tgz src", verdict.Allow},
		{"git archive -o " + tmp + "/src.tar HEAD", verdict.Allow},
		{"git archive --format=tar.gz -9 HEAD > dist.tgz", verdict.Allow},
		{"git archive HEAD | tar -x -C " + tmp + "/export", verdict.Allow},
		{"tar -xJf x.tar.xz -C " + tmp + "/out", verdict.Allow},
		{"unzip ok.zip", verdict.Allow},
		{"unzip -l cfg.zip", verdict.Allow},
		{"unzip -p cfg.zip", verdict.Allow},
		{"7z l cfg.zip", verdict.Allow},
		{"7z x a.7z -o" + tmp + "/x", verdict.Allow},
		{"cpio -id < ok.cpio", verdict.Allow},
		{"cpio -it < cfg.cpio", verdict.Allow},
		{"ar x lib.a", verdict.Allow},
		{"ar t lib.a", verdict.Allow},
		{"python3 -m tarfile -l cfg.tar", verdict.Allow},
		{"find . | cpio -pdm " + tmp + "/copy", verdict.Allow},
	} {
		if d := EvaluateCommand(tc.cmd, e, nil); d.Verdict != tc.want {
			t.Errorf("%q: %s, want %s (%s)", tc.cmd, d.Verdict, tc.want, d.Reason())
		}
	}
	strict := *e
	strict.Level = verdict.Strict
	if d := EvaluateCommand("git archive HEAD | tar -x", &strict, nil); d.Verdict != verdict.Deny {
		t.Errorf("an archive on a pipe into the project at strict: %s, want deny", d.Verdict)
	}
}

// TestTarCarriesCommands: the commands tar runs (--to-command, the
// compressor of -I, --checkpoint-action=exec=, the volume script) are read
// as commands, so that tar is not a wrapper that hides them.
func TestTarCarriesCommands(t *testing.T) {
	e := guardtest.Env(t)
	for _, tc := range []struct {
		cmd  string
		want verdict.Verdict
	}{
		{"tar -xf a.tar --to-command='rm -rf .git'", verdict.Deny},
		{"tar -cf /dev/null src --checkpoint=1 --checkpoint-action=exec='git commit --no-verify -m x'", verdict.Deny},
		{`tar -I 'sh -c "rm -rf ~"' -xf a.tar`, verdict.Deny},
		{"tar --use-compress-program='git push --force origin main' -cf x.tar src", verdict.Deny},
		{"tar -F 'git commit -nm x' -cMf x.tar src", verdict.Deny},
		{"tar --use-compress-program=pigz -cf x.tgz src", verdict.Allow},
		{"tar -xf a.tar --to-command='sha256sum'", verdict.Allow},
	} {
		if d := EvaluateCommand(tc.cmd, e, nil); d.Verdict != tc.want {
			t.Errorf("%q: %s, want %s (%s)", tc.cmd, d.Verdict, tc.want, d.Reason())
		}
	}
}

// FuzzListArchive: any bytes as an archive file; the readers never panic
// and a listing they give is bounded.
func FuzzListArchive(f *testing.F) {
	f.Add(cpioBytes("a", ".sentinel/config.toml"))
	f.Add(arBytes("pre-commit", "a_rather_long_member_name.o"))
	f.Add([]byte("!<arch>\n#1/20           0           0     0     644     20        `\nx"))
	f.Add([]byte("070707000000000000100644000000000000000001000000000000000000000000200000000002a\x00x\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "a")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		es, err := listArchive(p, []archiveFormat{formatTar, formatZip, formatCpio, formatAr})
		if err == nil && len(es) > 4*(maxArchiveChecks+1) {
			t.Fatalf("%d entries listed", len(es))
		}
	})
}
