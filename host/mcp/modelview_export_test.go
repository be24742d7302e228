package mcp

// ModelView is modelView, for the tests of package mcp_test.
var ModelView = modelView
