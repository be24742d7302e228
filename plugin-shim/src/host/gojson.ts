// The one piece of Go's JSON the plugin still needs: the members of the
// core's answer as their raw text, so that its result and error are copied
// into the printed answer byte for byte (call.ts; tests/cases.ts reads the
// cases' arguments with it too).

/** rawFields returns the top-level members of a JSON object as their raw text, exactly as written; it throws on text that is not one JSON object. */
export function rawFields(text: string): Map<string, string> {
  const top: unknown = JSON.parse(text); // the scan below then trusts the syntax
  if (top === null || typeof top !== "object" || Array.isArray(top)) throw new Error("rawFields: not a JSON object");
  const out = new Map<string, string>();
  let i = text.indexOf("{") + 1;
  const ws = (): void => {
    while (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t") i++;
  };
  // skip moves i past the value that starts at i.
  const skip = (): void => {
    let depth = 0;
    do {
      const c = text[i++];
      if (c === '"') {
        while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
        i++;
      } else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") depth--;
      else if (depth === 0) while (!/[\s,}\]]/.test(text[i]!)) i++;
    } while (depth > 0);
  };
  for (ws(); text[i] === '"'; ) {
    const k = i;
    skip();
    const key = JSON.parse(text.slice(k, i)) as string;
    ws();
    i++; // the colon
    ws();
    const v = i;
    skip();
    out.set(key, text.slice(v, i));
    ws();
    if (text[i] === ",") i++;
    ws();
  }
  return out;
}
