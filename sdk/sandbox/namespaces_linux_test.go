package sandbox

import "testing"

// Every name validation accepts has a flag or a number, and nothing else
// does.
func TestNamespaceTables(t *testing.T) {
	if len(namespaceFlags) != len(NamespaceKinds) || len(capNumbers) != len(NamespaceCaps) {
		t.Fatalf("tables hold %d kinds and %d capabilities, the lists %d and %d",
			len(namespaceFlags), len(capNumbers), len(NamespaceKinds), len(NamespaceCaps))
	}
	n := &Namespaces{Kinds: NamespaceKinds, AmbientCaps: NamespaceCaps}
	if _, err := n.CloneFlags(); err != nil {
		t.Error(err)
	}
	if _, err := n.CapNumbers(); err != nil {
		t.Error(err)
	}
	if _, err := (&Namespaces{Kinds: []string{"time"}}).CloneFlags(); err == nil {
		t.Error("CloneFlags accepted an unknown kind")
	}
}
