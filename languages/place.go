package languages

// Place is where a file sits in its project: what its results depend on
// beyond its content.
type Place struct {
	// Path is the file's slash path.
	Path string
	// Manifest returns the content of the nearest file above the file that
	// is named as the language's Manifest, or nil when there is none or it
	// cannot be read. It reads on first use, so that a language reads the
	// manifest only for the files that need it.
	Manifest func() []byte
}

// manifest returns the manifest's content, or nil.
func (p Place) manifest() []byte {
	if p.Manifest == nil {
		return nil
	}
	return p.Manifest()
}

// withTests returns a copy of r whose tests can be changed without
// changing r, which a cache may share.
func withTests(r *Result) *Result {
	c := *r
	c.Tests = append([]Test(nil), r.Tests...)
	return &c
}
