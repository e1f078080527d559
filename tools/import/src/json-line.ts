/** The bare numbers Python's json_util (and JavaScript's own older exports) write, which JSON has no words for. */
const BARE = /NaN|-?Infinity/y;

/**
 * One JSON line as `JSON.parse` reads it, or, when it holds bare `NaN` or `Infinity` outside its strings (Python's
 * `json_util.dumps` writes them so), with each written as Extended JSON's `{"$numberDouble": ...}`, which the
 * record's reading then takes for "no value". Anything else that is not JSON throws as `JSON.parse` does.
 */
export function parseJsonLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!/NaN|Infinity/.test(text)) throw error;
    let out = '';
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        out += c;
        if (c === '\\') out += text[++i] ?? '';
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      BARE.lastIndex = i;
      const bare = BARE.exec(text);
      if (bare) {
        out += `{"$numberDouble":"${bare[0]}"}`;
        i += bare[0].length - 1;
      } else out += c;
    }
    try {
      return JSON.parse(out);
    } catch {
      throw error;
    }
  }
}
