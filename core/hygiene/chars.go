package hygiene

// The reference checker runs on Node.js: it reads the files as UTF-8 (each
// invalid sequence becoming one U+FFFD, the WHATWG "maximal subpart" rule),
// counts characters in UTF-16 code units, trims and tests \s with
// JavaScript's whitespace set, and folds case on ASCII letters only. The
// helpers below reproduce exactly that, on the raw bytes.

// decode returns the character at s[i:] and its size in bytes, decoding as
// a WHATWG UTF-8 decoder does: an invalid sequence yields U+FFFD over its
// maximal subpart (1 to 3 bytes), where Go's utf8 package would yield one
// U+FFFD per byte.
func decode(s string, i int) (rune, int) {
	b := s[i]
	if b < 0x80 {
		return rune(b), 1
	}
	need := continuations(b)
	if need == 0 {
		return 0xFFFD, 1
	}
	r := rune(b & (0x7F >> (need + 1)))
	lo, hi := firstContinuation(b)
	n := 1
	for ; need > 0; need-- {
		if i+n >= len(s) || s[i+n] < lo || s[i+n] > hi {
			return 0xFFFD, n
		}
		r = r<<6 | rune(s[i+n]&0x3F)
		n++
		lo, hi = 0x80, 0xBF
	}
	return r, n
}

// continuations returns how many continuation bytes follow the leading
// byte b of a UTF-8 sequence, 0 when b cannot lead one.
func continuations(b byte) int {
	switch {
	case b >= 0xC2 && b <= 0xDF:
		return 1
	case b >= 0xE0 && b <= 0xEF:
		return 2
	case b >= 0xF0 && b <= 0xF4:
		return 3
	}
	return 0
}

// firstContinuation returns the range of the byte after the leading byte
// b (Unicode's table 3-7): narrower after E0 and F0, where a lower byte
// would make an overlong form, after ED, where a higher one would make a
// surrogate, and after F4, where a higher one would pass U+10FFFF.
func firstContinuation(b byte) (lo, hi byte) {
	switch b {
	case 0xE0:
		return 0xA0, 0xBF
	case 0xED:
		return 0x80, 0x9F
	case 0xF0:
		return 0x90, 0xBF
	case 0xF4:
		return 0x80, 0x8F
	}
	return 0x80, 0xBF
}

// isSpace reports whether r is JavaScript whitespace (\s, and what
// String.prototype.trim removes): WhiteSpace and LineTerminator.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// hasNonSpace reports whether s holds a character that is not JavaScript
// whitespace: whether s.trim() would be non-empty.
func hasNonSpace(s string) bool {
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		if !isSpace(r) {
			return true
		}
		i += n
	}
	return false
}

// trim is JavaScript's String.prototype.trim on the bytes of s.
func trim(s string) string {
	i := 0
	for i < len(s) {
		r, n := decode(s, i)
		if !isSpace(r) {
			break
		}
		i += n
	}
	end := i
	for j := i; j < len(s); {
		r, n := decode(s, j)
		j += n
		if !isSpace(r) {
			end = j
		}
	}
	return s[i:end]
}

// units returns the length of s in UTF-16 code units (JavaScript's length),
// stopping early once it reaches max.
func units(s string, max int) int {
	u := 0
	for i := 0; i < len(s) && u < max; {
		r, n := decode(s, i)
		if r >= 0x10000 {
			u += 2
		} else {
			u++
		}
		i += n
	}
	return u
}

// lastChar returns the last character of s (0 for an empty s).
func lastChar(s string) rune {
	var last rune
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		last = r
		i += n
	}
	return last
}

// isWord reports whether b is a regular-expression word character
// ([A-Za-z0-9_]); every non-ASCII byte is not.
func isWord(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// boundaryAt reports a word boundary after a word character at s[p]:
// true at the end of s or before a non-word byte.
func boundaryAt(s string, p int) bool { return p >= len(s) || !isWord(s[p]) }

// hasPrefixFold reports whether s starts with prefix, ASCII letters
// compared case-insensitively (JavaScript's /i without /u never folds a
// non-ASCII character onto an ASCII one). prefix must be ASCII.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		a, b := s[i], prefix[i]
		if a >= 'A' && a <= 'Z' {
			a += 'a' - 'A'
		}
		if b >= 'A' && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// dateShape reports whether s[p:] starts with YYYY-MM-DD (ASCII digits).
func dateShape(s string, p int) bool {
	if len(s)-p < 10 {
		return false
	}
	for k := 0; k < 10; k++ {
		c := s[p+k]
		if k == 4 || k == 7 {
			if c != '-' {
				return false
			}
		} else if !isDigit(c) {
			return false
		}
	}
	return true
}

// validDate reports whether d is YYYY-MM-DD naming a real day of the
// proleptic Gregorian calendar. Years 0000–0099 are invalid, as they are for
// the reference checker (JavaScript's Date.UTC maps them to 1900–1999).
func validDate(d string) bool {
	if len(d) != 10 || !dateShape(d, 0) {
		return false
	}
	num := func(s string) int {
		n := 0
		for i := 0; i < len(s); i++ {
			n = n*10 + int(s[i]-'0')
		}
		return n
	}
	y, m, day := num(d[0:4]), num(d[5:7]), num(d[8:10])
	if y < 100 || m < 1 || m > 12 || day < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && (y%4 == 0 && y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return day <= days
}
