package trailers

import (
	"fmt"
	"io"
	"os"

	"github.com/gitsentinel/sentinel/gitrepo"
)

// RuleMessageTooLarge refuses a message larger than gitrepo.MaxMessage.
// Agent footers and Assisted-by lines count wherever they are, and git
// finds the trailer block against a "---" divider or a scissors line that
// may be anywhere in the message: no bounded part of a message decides the
// policy, so a message sentinel cannot read whole cannot pass it.
const RuleMessageTooLarge = "message-too-large"

// MessageTooLargeError is a message larger than gitrepo.MaxMessage, which
// ReadMessage refuses to read further.
type MessageTooLargeError struct {
	// Size is the message's size in bytes, 0 when unknown (a pipe).
	Size int64
	// Title is the message's first line.
	Title string
}

// Error says how large the message is and what sentinel reads.
func (e *MessageTooLargeError) Error() string {
	return "the message is " + sizeText(e.Size) + ", and sentinel reads commit messages of up to " + fmt.Sprint(gitrepo.MaxMessage) + " bytes"
}

// sizeText is a message's size as far as sentinel knows it.
func sizeText(size int64) string {
	if size <= gitrepo.MaxMessage {
		return fmt.Sprintf("larger than %d bytes", gitrepo.MaxMessage)
	}
	return fmt.Sprintf("%d bytes", size)
}

// ReadMessage reads a commit message from r, at most gitrepo.MaxMessage
// bytes of it: a larger one is a *MessageTooLargeError, and no more of it
// is read than one byte past the bound.
func ReadMessage(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, gitrepo.MaxMessage+1))
	if err != nil {
		return nil, err
	}
	if len(b) > gitrepo.MaxMessage {
		return nil, &MessageTooLargeError{Title: firstLine(b[:4<<10])}
	}
	return b, nil
}

// ReadMessageFile reads the commit message in the file at path, as
// ReadMessage bounds it.
func ReadMessageFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := ReadMessage(f)
	if e, ok := err.(*MessageTooLargeError); ok {
		if st, serr := f.Stat(); serr == nil && st.Mode().IsRegular() {
			e.Size = st.Size()
		}
	}
	return b, err
}

// tooLarge is the violation of a message too large to read whole.
func tooLarge(title string, size int64, fix string) Violation {
	return Violation{
		Rule: RuleMessageTooLarge, Line: 1, Text: title,
		Reason: (&MessageTooLargeError{Size: size}).Error() + ": trailers and agent footers count wherever git finds them, so a message it cannot read whole cannot be shown to follow the attribution policy",
		Fix:    fix,
	}
}

// TooLargeReport is the refusal of the message named source, which
// ReadMessage found too large; fix says how to shorten it where it is.
func TooLargeReport(source string, e *MessageTooLargeError, fix string) *Report {
	return &Report{Checked: 1, Findings: []Finding{{Source: source, Violations: []Violation{tooLarge(e.Title, e.Size, fix)}}}}
}

// commitTooLarge is the violation of a commit whose message is larger
// than gitrepo.MaxMessage, with the command that rewords it.
func commitTooLarge(c gitrepo.Commit) Violation {
	onto := c.Short() + "~1"
	if len(c.Parents) == 0 {
		onto = "--root"
	}
	return tooLarge(firstLine(c.Message), c.MessageSize,
		fmt.Sprintf("reword the commit with a shorter message, and keep logs and data in files of the commit: `git rebase -i %s` (mark %s reword)", onto, c.Short()))
}
