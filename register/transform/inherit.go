package transform

import "slices"

// Inherit returns the post-uplift steps block id inherits, as the OGC tool
// chain collects them (bblocks-postprocess, get_inherited_post_uplift_steps)
// when the block's semantic-uplift.yaml u sets inheritedPostSteps: the
// blocks it depends on and those it is a profile of, transitively, each
// block once and after the blocks it depends on in turn (a post-order
// walk), and of each block u.Inherit names, the steps marked inheritable,
// in their order. lookup gives a block's dependencies (dependsOn, then
// isProfileOf) and the steps it lends (InheritableSteps); ok is false for
// a block it does not know. unknown lists the blocks u.Inherit names that
// the walk did not meet.
func Inherit(id string, u *Uplift, lookup func(id string) (deps []string, steps []*Step, ok bool)) (steps []*Step, unknown []string) {
	if u == nil || len(u.Inherit) == 0 {
		return nil, nil
	}
	emitted := map[string]bool{}
	var visit func(dep string, path []string)
	visit = func(dep string, path []string) {
		if emitted[dep] || slices.Contains(path, dep) {
			return
		}
		deps, lent, ok := lookup(dep)
		if !ok {
			return
		}
		path = append(path, dep)
		for _, d := range deps {
			visit(d, path)
		}
		emitted[dep] = true
		if u.InheritsFrom(dep) {
			steps = append(steps, lent...)
		}
	}
	deps, _, _ := lookup(id)
	for _, d := range deps {
		visit(d, []string{id})
	}
	for _, x := range u.Inherit {
		if x != All && !emitted[x] {
			unknown = append(unknown, x)
		}
	}
	return steps, unknown
}
