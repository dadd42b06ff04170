package contain

import (
	"encoding/binary"
	"runtime"
)

// A terminal that passes through into the sandbox is one the agent can
// type into: ioctl(TIOCSTI) pushes bytes into its input queue, and the
// shell that started sentinel run reads them as a command once the
// sandbox is gone, outside it. bwrap's --new-session closes that by
// taking the controlling terminal away, which breaks a TUI (no job
// control, no SIGWINCH on a resize). So with a terminal, the sandbox keeps
// it and filters the two ioctls that inject input instead (TIOCSTI, and
// TIOCLINUX's paste), the way Flatpak does; without one, it starts a new
// session.

// Classic BPF, as seccomp reads it.
const (
	bpfLdAbsW = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeqK   = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfRetK   = 0x06 // BPF_RET | BPF_K

	secAllow = 0x7fff0000
	secErrno = 0x00050000
	ePerm    = 1

	tiocsti   = 0x5412
	tioclinux = 0x541c

	// The offsets in struct seccomp_data: nr, arch, and the low half of
	// args[1] (ioctl's request, an unsigned int to the kernel, so the
	// high half is ignored there and must be here).
	offNr    = 0
	offArch  = 4
	offArg1L = 24
)

// archIoctl is one ABI the kernel may be entered through, and its ioctl.
type archIoctl struct {
	arch uint32
	nrs  []uint32
}

// ioctlABIs are the ABIs of this platform; a process may enter the
// kernel through each of them (an i386 binary on amd64), so each is
// filtered. A call through any other is refused.
func ioctlABIs() []archIoctl {
	switch runtime.GOARCH {
	case "amd64":
		return []archIoctl{{0xc000003e, []uint32{16, 0x40000000 | 514}}, {0x40000003, []uint32{54}}}
	case "arm64":
		return []archIoctl{{0xc00000b7, []uint32{29}}, {0x40000028, []uint32{54}}}
	}
	return nil
}

// insn is one BPF instruction; jt and jf name labels for a jump.
type insn struct {
	code   uint16
	k      uint32
	jt, jf string
	label  string
}

// tiocstiFilter is the seccomp program: ERRNO(EPERM) for ioctl TIOCSTI
// and TIOCLINUX, and for any call through an ABI it does not know; every
// other call is allowed. It returns nil on a platform it has no ABI for,
// where Run refuses to pass a terminal in.
func tiocstiFilter() []byte {
	abis := ioctlABIs()
	if abis == nil {
		return nil
	}
	var prog []insn
	prog = append(prog, insn{code: bpfLdAbsW, k: offArch})
	for i, abi := range abis {
		next := "abi" + string(rune('0'+i+1))
		prog = append(prog, insn{code: bpfJeqK, k: abi.arch, jf: next})
		prog = append(prog, insn{code: bpfLdAbsW, k: offNr})
		for _, nr := range abi.nrs {
			prog = append(prog, insn{code: bpfJeqK, k: nr, jt: "ioctl"})
		}
		prog = append(prog, insn{code: bpfRetK, k: secAllow})
		prog = append(prog, insn{label: next, code: bpfLdAbsW, k: offArch})
	}
	prog = append(prog,
		insn{code: bpfRetK, k: secErrno | ePerm},
		insn{label: "ioctl", code: bpfLdAbsW, k: offArg1L},
		insn{code: bpfJeqK, k: tiocsti, jt: "deny"},
		insn{code: bpfJeqK, k: tioclinux, jt: "deny"},
		insn{code: bpfRetK, k: secAllow},
		insn{label: "deny", code: bpfRetK, k: secErrno | ePerm},
	)
	at := map[string]int{}
	for i, in := range prog {
		if in.label != "" {
			at[in.label] = i
		}
	}
	out := make([]byte, 0, 8*len(prog))
	for i, in := range prog {
		var jt, jf uint8
		if in.jt != "" {
			jt = uint8(at[in.jt] - i - 1)
		}
		if in.jf != "" {
			jf = uint8(at[in.jf] - i - 1)
		}
		out = binary.NativeEndian.AppendUint16(out, in.code)
		out = append(out, jt, jf)
		out = binary.NativeEndian.AppendUint32(out, in.k)
	}
	return out
}
