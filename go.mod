module kessho

go 1.26.0

require (
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
	golang.org/x/sys v0.44.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
