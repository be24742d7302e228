package cli

// runMCP is `kessho mcp`: being written (issue 4).
func runMCP(g globals, rest []string, env Env) int {
	return usage(env, usagef("mcp: not built yet"))
}
