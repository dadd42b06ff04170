package trailers

import (
	"errors"

	"golang.org/x/sys/unix"
)

// sysctlTable reads macOS's process table with sysctl: kern.proc.pid for
// the parent and the short name, kern.procargs2 for the executable, the
// command line and the environment. It starts no process, so it costs
// what /proc reads cost on Linux.
type sysctlTable struct{}

// systemTable reads the process table with sysctl.
func systemTable() ProcessTable { return sysctlTable{} }

// Process reads one process's parent, name and command line.
func (sysctlTable) Process(pid int) (*Process, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return nil, err
	}
	if int(k.Proc.P_pid) != pid {
		return nil, errors.New("no such process")
	}
	p := &Process{PID: pid, PPID: int(k.Eproc.Ppid), Comm: unix.ByteSliceToString(k.Proc.P_comm[:])}
	if raw, err := unix.SysctlRaw("kern.procargs2", pid); err == nil {
		if exe, args, _, ok := parseProcArgs(raw); ok {
			p.Exe, p.Args = exe, args
		}
	}
	return p, nil
}

// Environ reads the environment the process started with; the system
// shows it for the user's own processes only.
func (sysctlTable) Environ(pid int) []string {
	raw, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil
	}
	_, _, env, _ := parseProcArgs(raw)
	return env
}

// Dir is unknown: macOS tells a process's working directory only through
// libproc, which needs cgo.
func (sysctlTable) Dir(int) string { return "" }
