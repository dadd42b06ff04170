package script

// For this commit only, the tests keep the names they were written with in
// package guard, so that the ratchet knows each moved test by its body;
// the next commit renames them in place.
var (
	ScriptEffects         = Effects
	InterpreterInvocation = Invocation
	ErrScriptSyntax       = ErrSyntax
)

type ScriptEffect = Effect

const (
	ScriptHole    = Hole
	MaxScriptSize = MaxSize
)
