package trailers

// systemTable reads Linux's /proc.
func systemTable() ProcessTable { return ProcFS{Root: "/proc"} }
