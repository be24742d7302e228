package cli

// InitText is initText, for the check of its text file.
var InitText = initText
