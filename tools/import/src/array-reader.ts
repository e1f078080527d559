/**
 * The elements of one JSON array (`mongoexport --jsonArray`, which writes it on one line), split as the line reader
 * splits lines: bytes are scanned for the commas and the closing bracket outside strings and nested values, each
 * element is handed on as its text, to be parsed with JSON.parse, so an array reads as fast as JSON lines (a
 * streaming JSON parser built value by value was twice as slow; README "Streaming"). An element longer than
 * `maxBytes` is counted and dropped, not held. The line of every element is counted for the report.
 */
export type ArrayRead =
  | { n: number; line: number; text: string }
  | { n: number; line: number; tooLong: number }
  /** Not an element: text where the array's syntax has none (`n` 0 when outside the array). */
  | { n: number; line: number; error: string }
  /** The file ends inside the array (inside element `n`, or between elements). */
  | { n: number; line: number; cutShort: true };

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export async function* arrayElements(input: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<ArrayRead> {
  let phase: 'before' | 'inside' | 'after' = 'before';
  let line = 1;
  let n = 0; // elements started
  let depth = 0; // nesting inside the current element
  let inString = false;
  let escaped = false; // the last byte of the previous chunk was a backslash inside a string
  let parts: Buffer[] = [];
  let length = 0;
  let startLine = 1;
  let started = false; // the current element's first byte that is not white space has been seen
  let junkReported = false;
  const mark = () => {
    if (started) return;
    started = true;
    startLine = line;
  };
  const take = (piece: Buffer) => {
    length += piece.length;
    if (length > maxBytes) parts = [];
    else parts.push(piece);
  };
  const finish = (): ArrayRead | undefined => {
    const result: ArrayRead =
      length > maxBytes
        ? { n, line: startLine, tooLong: length }
        : { n, line: startLine, text: Buffer.concat(parts).toString('utf8') };
    parts = [];
    length = 0;
    if ('text' in result && result.text.trim() === '')
      return { n, line: startLine, error: `element ${n} is empty (two commas in a row, or a comma before "]")` };
    return result;
  };
  for await (const chunk of input) {
    let i = 0;
    let from = phase === 'inside' ? 0 : -1; // where the current element's bytes in this chunk start
    while (i < chunk.length) {
      if (phase === 'inside' && inString) {
        if (escaped) {
          escaped = false;
          i += 1;
          continue;
        }
        const quote = chunk.indexOf(QUOTE, i);
        const slash = chunk.indexOf(BACKSLASH, i);
        if (slash !== -1 && (quote === -1 || slash < quote)) {
          if (slash + 1 >= chunk.length) escaped = true;
          i = slash + 2;
          continue;
        }
        if (quote === -1) {
          i = chunk.length;
          continue;
        }
        inString = false;
        i = quote + 1;
        continue;
      }
      const b = chunk[i];
      if (b === NEWLINE) line += 1;
      if (phase === 'before') {
        if (b === OPEN_BRACKET) {
          phase = 'inside';
          n = 1;
          started = false;
          from = i + 1;
        } else if (!isSpace(b) && !junkReported) {
          junkReported = true;
          yield { n: 0, line, error: `line ${line}: expected "[" to open the array` };
        }
        i += 1;
        continue;
      }
      if (phase === 'after') {
        if (!isSpace(b) && !junkReported) {
          junkReported = true;
          yield { n: 0, line, error: `line ${line}: text after the array's closing "]"` };
        }
        i += 1;
        continue;
      }
      if (b === QUOTE) {
        inString = true;
        mark();
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        depth += 1;
        mark();
      } else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && depth > 0) depth -= 1;
      else if (depth === 0 && (b === COMMA || b === CLOSE_BRACKET)) {
        take(chunk.subarray(from, i));
        const empty = b === CLOSE_BRACKET && n === 1 && Buffer.concat(parts).toString('utf8').trim() === '';
        if (empty) {
          parts = [];
          length = 0;
        } else {
          const element = finish();
          if (element) yield element;
        }
        if (b === COMMA) n += 1;
        else phase = 'after';
        started = false;
        from = i + 1;
      } else if (!isSpace(b)) mark();
      i += 1;
    }
    if (phase === 'inside') take(chunk.subarray(Math.max(from, 0)));
  }
  if (phase === 'inside') yield { n, line, cutShort: true };
}
