package guard

var rbMarkers, phpMarkers, plMarkers []string

func readRuby(r *scriptRun, src string) error { return nil }
func readPHP(r *scriptRun, src string) error  { return nil }
func readPerl(r *scriptRun, src string) error { return nil }
func readAwk(r *scriptRun, src string) error  { return nil }
