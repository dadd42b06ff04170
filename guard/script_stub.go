package guard

var phpMarkers, plMarkers []string

func readPHP(r *scriptRun, src string) error  { return nil }
func readPerl(r *scriptRun, src string) error { return nil }
func readAwk(r *scriptRun, src string) error  { return nil }
