//go:build !sentinel_front

package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

func versionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version, the commit, the Go version and the platform (also --version, -v, -V)",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return &usageError{fmt.Errorf("version takes no arguments")}
			}
			_, err := io.WriteString(e.stdout, versionText())
			return err
		},
	}
}
