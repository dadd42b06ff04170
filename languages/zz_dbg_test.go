package languages

import (
	"context"
	"fmt"
	"os"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/swift"
)

func TestDbg(t *testing.T) {
	langs := map[string]*sitter.Language{"cs": csharp.GetLanguage(), "kt": kotlin.GetLanguage(), "swift": swift.GetLanguage()}
	p := sitter.NewParser()
	p.SetLanguage(langs[os.Getenv("L")])
	tr, _ := p.ParseCtx(context.Background(), nil, []byte(os.Getenv("SRC")))
	fmt.Println(tr.RootNode().String())
}
