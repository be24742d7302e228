package mcp

// ModelView is modelView, for the tests of package mcp_test.
var ModelView = modelView

// ResourceOf is resourceOf as a URI, for the tests of package mcp_test.
func ResourceOf(p string) (string, bool) {
	r, ok := resourceOf(p)
	return r.String(), ok
}
