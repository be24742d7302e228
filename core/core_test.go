package core

// testCore is the Core the package's tests share, as an engine instance
// shares one across its calls.
var testCore = New()

// Handle is testCore.Handle.
func Handle(request []byte) []byte { return testCore.Handle(request) }
