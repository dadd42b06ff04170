package argspec

// The archivers' tables. Their operations are options (-x, --extract, and
// cpio's -i), so that whether a command extracts, and where to, is read
// from the parsed options: -C DIR and --directory=DIR, -f FILE, the
// options that rewrite names (--strip-components, --transform, bsdtar's
// -s) or keep the dangerous ones (-P), and those that extract to stdout.
// tar's first word may be its options without a dash, old style: tar
// xzf a.tgz is tar -x -z -f a.tgz (Spec.oldStyle).
var archiveDescs = map[string]specDesc{
	// GNU tar 1.35, as getopt_long reads it: long options abbreviate.
	"tar": {abbrev: true, oldStyle: true, desc: "A|catenate|concatenate c|create d|diff|compare delete r|append t|list test-label u|update x|extract|get " +
		"C|directory= f|file= P|absolute-names O|to-stdout strip-components= transform= xform= to-command= I|use-compress-program= " +
		"checkpoint? checkpoint-action= F|info-script|new-volume-script= rsh-command= rmt-command= one-top-level? " +
		"b|blocking-factor= B|read-full-records g|listed-incremental= G|incremental H|format= K|starting-file= L|tape-length= M|multi-volume " +
		"N|newer|after-date= T|files-from= V|label= X|exclude-from= exclude= exclude-vcs exclude-vcs-ignores exclude-backups exclude-caches " +
		"exclude-caches-under exclude-caches-all exclude-tag= exclude-tag-under= exclude-tag-all= exclude-ignore= exclude-ignore-recursive= " +
		"anchored no-anchored ignore-case no-ignore-case wildcards no-wildcards wildcards-match-slash no-wildcards-match-slash null no-null " +
		"verbatim-files-from no-verbatim-files-from k|keep-old-files keep-newer-files keep-directory-symlink skip-old-files overwrite " +
		"overwrite-dir no-overwrite-dir U|unlink-first recursive-unlink remove-files W|verify m|touch p|preserve-permissions|same-permissions " +
		"no-same-permissions s|preserve-order|same-order same-owner no-same-owner numeric-owner owner= group= mode= mtime= o S|sparse " +
		"sparse-version= h|dereference hard-dereference l|check-links one-file-system z|gzip|gunzip|ungzip j|bzip2 J|xz lzip lzma lzop zstd " +
		"Z|compress|uncompress a|auto-compress no-auto-compress v|verbose w|interactive|confirmation R|block-number totals? " +
		"show-transformed-names show-stored-names show-defaults show-omitted-dirs index-file= i|ignore-zeros ignore-failed-read " +
		"ignore-command-error no-ignore-command-error force-local no-recursion recursion posix xattrs no-xattrs xattrs-include= " +
		"xattrs-exclude= acls no-acls selinux no-selinux warning= backup? suffix= delay-directory-restore no-delay-directory-restore " +
		"quoting-style= quote-chars= no-quote-chars= occurrence? utc full-time record-size= n|seek no-seek restrict level= check-device " +
		"no-check-device unquote no-unquote volno-file= newer-mtime= hole-detection= clamp-mtime sort= pax-option= add-file= " +
		"atime-preserve? version help usage"},
	// libarchive's bsdtar, the tar of macOS and the BSDs: -s rewrites
	// names, -I is -T, and it reads zip, 7z and cpio archives too.
	"bsdtar": {abbrev: true, oldStyle: true, desc: "c|create r|append t|list u|update x|extract " +
		"b|block-size= C|cd|directory= f|file= H I|T|files-from= k|keep-old-files L l|check-links m|modification-time n|norecurse|no-recursion " +
		"O|to-stdout o P|absolute-paths p|preserve-permissions q|fast-read S s= U|unlink|unlink-first v|verbose w|interactive X|exclude-from= " +
		"y j|bzip2 J|xz Z|compress z|gunzip|gzip a|auto-compress h B|read-full-blocks strip-components= exclude= include= format= options= " +
		"newer= newer-mtime= newer-than= newer-mtime-than= older= older-mtime= older-than= older-mtime-than= null numeric-owner uid= gid= " +
		"uname= gname= chroot clear-nochange-fflags passphrase= lrzip lz4 lzma lzop zstd grzip b64encode uuencode use-compress-program= " +
		"one-file-system same-owner no-same-owner no-same-permissions safe-writes no-safe-writes keep-newer-files ignore-zeros no-xattrs " +
		"xattrs no-acls acls no-fflags fflags no-mac-metadata mac-metadata read-sparse no-read-sparse totals insecure version help"},
	// Info-ZIP's unzip: one-letter options and modifiers, before or after
	// the archive; -d takes the directory, -x starts a list of names.
	"unzip": {desc: "c f l p t T u v z a b B C D E F j J K L M n N o q s S U V W X Y : ^ $ 2 P= O= I= x d= Z"},
	// GNU cpio 2.15.
	"cpio": {abbrev: true, desc: "i|extract o|create p|pass-through t|list a|reset-access-time A|append b B c C|io-size= d|make-directories " +
		"D|directory= E|pattern-file= f|nonmatching F|file= H|format= I= L|dereference l|link m|preserve-modification-time M|message= " +
		"n|numeric-uid-gid O= quiet R|owner= r|rename rename-batch-file= s|swap-bytes S|swap-halfwords u|unconditional V|dot v|verbose " +
		"W|warning= 0|null absolute-filenames no-absolute-filenames no-preserve-owner only-verify-crc sparse to-stdout force-local " +
		"rsh-command= device-independent|reproducible ignore-devno renumber-inodes ignore-dirnames help usage version"},
}
