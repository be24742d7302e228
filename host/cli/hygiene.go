package cli

// runHygiene is `kessho hygiene check|trim`: being written (issue 7).
func runHygiene(g globals, rest []string, env Env) int {
	return usage(env, usagef("hygiene: not built yet"))
}
