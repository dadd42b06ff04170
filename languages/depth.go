package languages

/*
#include <stdbool.h>
#include <stdint.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

// The layouts and functions of tree-sitter's api.h (the version
// smacker/go-tree-sitter vendors), linked from its objects.
typedef struct TSTree TSTree;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);

TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
uint32_t ts_node_descendant_count(TSNode self);

// sentinel_tree_shape walks the tree below root and returns how deep it
// goes, or the first depth past limit; *nodes counts its nodes and *depths
// adds up their depths. A subtree whose nodes are all within skip of the
// root (its root's depth and its size tell) is not walked: its nodes count
// each as deep as it may go, and *depths is then a bound on the sum.
static uint32_t sentinel_tree_shape(TSNode root, uint32_t limit, uint32_t skip, uint64_t *nodes, uint64_t *depths) {
	TSTreeCursor c = ts_tree_cursor_new(root);
	uint32_t depth = 0, deepest = 0;
	uint64_t n = 1, sum = 0;
	// moved: the cursor is on a node not counted yet, at depth.
	bool moved = ts_tree_cursor_goto_first_child(&c);
	if (moved) {
		depth = 1;
	}
	while (depth > 0) {
		if (!moved) {
			// No sibling left: the next is a sibling of the parent's.
			ts_tree_cursor_goto_parent(&c);
			if (--depth == 0) {
				break;
			}
			moved = ts_tree_cursor_goto_next_sibling(&c);
			continue;
		}
		uint64_t size = 1;
		if (skip > 0) {
			size = ts_node_descendant_count(ts_tree_cursor_current_node(&c));
		}
		if (size > 1 && depth + size - 1 <= skip) {
			n += size;
			sum += size * depth + size * (size - 1) / 2;
			if (depth + size - 1 > deepest) {
				deepest = depth + size - 1;
			}
			moved = ts_tree_cursor_goto_next_sibling(&c);
			continue;
		}
		n++;
		sum += depth;
		if (depth > deepest && (deepest = depth) > limit) {
			break;
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			continue;
		}
		moved = ts_tree_cursor_goto_next_sibling(&c);
	}
	ts_tree_cursor_delete(&c);
	*nodes = n;
	*depths = sum;
	return deepest;
}

// sentinel_trim hands the memory C has freed back to the system: glibc
// keeps it in the arena of the thread that freed it, where a parse on
// another thread does not find it.
static void sentinel_trim(void) {
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}
*/
import "C"

import (
	"runtime/debug"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// treeShape is how deep the tree below n goes, counting the nodes a tree
// cursor visits, or the first depth past limit, with the number of its
// nodes and the sum of their depths. The walk runs in C, one cgo call for
// the whole tree: through the Go bindings, a call for each node made it a
// fifth of a count. A sitter.Node begins with its C node
// (TestTreeShapeMatchesCursor holds the layout to the bindings').
func treeShape(n *sitter.Node, limit int) (depth int, nodes, depths uint64) {
	return shapeOf(n, limit, 0)
}

func shapeOf(n *sitter.Node, limit, skip int) (depth int, nodes, depths uint64) {
	root := *(*C.TSNode)(unsafe.Pointer(n))
	var cn, cd C.uint64_t
	depth = int(C.sentinel_tree_shape(root, C.uint32_t(limit), C.uint32_t(skip), &cn, &cd))
	return depth, uint64(cn), uint64(cd)
}

// treeTooDeep reports a tree past MaxNesting or maxDepthSum. It walks the
// tree first leaving out the subtrees whose nodes are all within
// depthPerNode of the root, which bounds their depths without reading
// them, and reads the whole tree only when the bound is not enough: the
// upper levels of an ordinary file are a few hundredths of its nodes.
func treeTooDeep(n *sitter.Node) bool {
	depth, nodes, bound := shapeOf(n, MaxNesting, depthPerNode)
	if depth <= MaxNesting && bound <= maxDepthSum(nodes) {
		return false
	}
	depth, nodes, sum := treeShape(n, MaxNesting)
	return depth > MaxNesting || sum > maxDepthSum(nodes)
}

// freeMemory returns to the system what the Go heap and C have freed.
func freeMemory() {
	debug.FreeOSMemory()
	C.sentinel_trim()
}
