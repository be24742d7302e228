package frontmatter

// The edits without a cache, as the tests call them.

func Set(text, key string, value any) (string, error) { return (*Cache)(nil).Set(text, key, value) }

func Remove(text, key string) (string, error) { return (*Cache)(nil).Remove(text, key) }

func SetBody(text, body string) (string, error) { return (*Cache)(nil).SetBody(text, body) }
