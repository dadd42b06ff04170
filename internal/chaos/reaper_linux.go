package chaos

import "syscall"

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// becomeSubreaper makes the probe the parent of the processes orphaned
// below it. A git left running by a killed sentinel is then the probe's to
// reap, rather than a zombie of an init that may never reap it (as in many
// containers), which would keep its process group alive forever.
func becomeSubreaper() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}
