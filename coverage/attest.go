package coverage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// AttestOptions says which commit's attribution a person attests.
type AttestOptions struct {
	// Dir is a directory in the repository.
	Dir string
	// Rev names the commit.
	Rev string
	// AssistedBy is the Assisted-by value the commit lacked: AGENT:MODEL.
	AssistedBy string
	// Reason says why, for the record.
	Reason string
	// By is the person ("Name <email>").
	By string
	// Now is the time of the attestation.
	Now time.Time
}

// Attest records in the baseline, and stages, an attestation: a person's
// word that a commit already made was made with an agent, in place of the
// Assisted-by it lacked (or the agent credit it carried), so that sentinel
// ci takes its attribution as mended without a rewrite of history. The
// commit that carries the attestation is itself held to the rule of
// acceptances: a person's, and signed where [ratchet] signers asks.
func Attest(ctx context.Context, o AttestOptions) (*Acceptance, error) {
	value := strings.TrimSpace(o.AssistedBy)
	agent, model, ok := strings.Cut(value, ":")
	if !ok || strings.TrimSpace(agent) == "" || strings.TrimSpace(model) == "" || strings.ContainsAny(agent, " \t") || strings.ContainsFunc(value, unicode.IsControl) {
		return nil, fmt.Errorf("--assisted-by %s is not AGENT:MODEL on one line (such as Claude:claude-opus-4, or Claude:unknown)", quote.Name(o.AssistedBy))
	}
	info, err := gitrepo.RepoInfo(ctx, o.Dir)
	if err != nil {
		return nil, err
	}
	id, err := gitrepo.ResolveCommit(ctx, info.Root, o.Rev)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, fmt.Errorf("%s names no commit: give the id `sentinel ci` names", quote.Name(o.Rev))
	}
	reason := strings.TrimSpace(o.Reason)
	if reason == "" {
		reason = "made with " + value + ", attested after the fact"
	}
	rec := Acceptance{AssistedBy: value, At: o.Now.UTC().Format(time.RFC3339), By: o.By, Commit: id, Lowered: map[string]map[string][2]int{}, Reason: reason}
	_, err = UpdateBaseline(ctx, UpdateOptions{Root: info.Root, CommonDir: info.CommonDir, Stage: true}, func(b *Baseline) (*Baseline, error) {
		if b == nil {
			return nil, ErrNoBaseline
		}
		for _, a := range b.Accepted {
			if a.Commit == id && a.AssistedBy != "" {
				return nil, fmt.Errorf("commit %s is attested already, as %s by %s", gitrepo.ShortID(id), quote.Name(a.AssistedBy), quote.Name(a.By))
			}
		}
		out := b.clone()
		out.Accepted = append(out.Accepted, rec)
		return out, nil
	})
	if errors.Is(err, ErrNoBaseline) {
		return nil, fmt.Errorf("%w: an attestation is kept in it; run `sentinel init`, and commit the baseline", err)
	}
	if err != nil {
		return nil, err
	}
	return &rec, nil
}
