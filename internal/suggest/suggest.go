// Package suggest finds the word a person most likely meant when they
// misspelt a command, a flag or a configuration key.
package suggest

import "unicode/utf8"

// Distance returns the edit distance between a and b counted in runes:
// insertions, deletions, substitutions and swaps of two neighbours, each
// one edit (the optimal string alignment distance). Swaps count once
// because they are the commonest slip of the fingers ("rasie").
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows suffice: a swap looks two rows back.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Closest returns the candidate nearest to word, or "" when none is near
// enough to be what was meant: a suggestion that is a guess does more harm
// than none. Near enough is at most one edit in three runes of the word
// (at least one edit); ties go to the earlier candidate.
func Closest(word string, candidates []string) string {
	limit := max(1, utf8.RuneCountInString(word)/3)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == word {
			continue
		}
		if d := Distance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean returns " (did you mean X?)" for the candidate closest to word,
// with X rendered by show, or "" when there is none.
func DidYouMean(word string, candidates []string, show func(string) string) string {
	c := Closest(word, candidates)
	if c == "" {
		return ""
	}
	if show != nil {
		c = show(c)
	}
	return " (did you mean " + c + "?)"
}
