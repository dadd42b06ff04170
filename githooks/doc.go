// Package githooks holds the entry points that sentinel's git hook scripts
// call, and, in time, the installation of those scripts.
package githooks
