// testdata/recall is a module of its own only so that the published
// module (github.com/kessho/kessho, what `go install` downloads) leaves
// it out: its notes are named as people name them, with apostrophes,
// and a module zip refuses a file name with an apostrophe. No Go code is
// here; the recall benchmark reads these files from the repository
// (RATIONALE.md, "Why is testdata/recall a module of its own?").
module github.com/kessho/kessho/testdata/recall

go 1.26.0
