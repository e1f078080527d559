/**
 * The elements of one JSON array (`mongoexport --jsonArray`, which writes it on one line), split as the line reader
 * splits lines: bytes are scanned for the commas and the closing bracket outside strings and nested values, each
 * element is handed on as its text, to be parsed with JSON.parse, so an array reads as fast as JSON lines (a
 * streaming JSON parser built value by value was twice as slow; docs/importing.md, "Streaming"). An element longer than
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

/**
 * The scanner's state between chunks. Its loop is one plain method on locals, with no closure over the state: in an
 * async generator, with the state captured by closures, the same loop ran ten times slower than the line splitter.
 */
class ArraySplitter {
  private phase: 'before' | 'inside' | 'after' = 'before';
  private line = 1;
  private n = 0; // elements started
  private depth = 0; // nesting inside the current element
  private inString = false;
  private carry = 0; // bytes of the next chunk to pass over (the character an escape at a chunk's end escapes)
  private parts: Buffer[] = [];
  private length = 0;
  private startLine = 1;
  private started = false; // the current element's first byte that is not white space has been seen
  private junkReported = false;

  constructor(private readonly maxBytes: number) {}

  private take(piece: Buffer): void {
    this.length += piece.length;
    if (this.length > this.maxBytes) this.parts = [];
    else this.parts.push(piece);
  }

  private finish(out: ArrayRead[], closing: boolean): void {
    const { n, startLine: line } = this;
    const tooLong = this.length > this.maxBytes ? this.length : undefined;
    const text = tooLong === undefined ? Buffer.concat(this.parts).toString('utf8') : '';
    this.parts = [];
    this.length = 0;
    if (tooLong !== undefined) out.push({ n, line, tooLong });
    else if (this.started) out.push({ n, line, text });
    // `[]` and `[ ]` hold no element; an empty one anywhere else is two commas in a row, or a comma before "]".
    else if (!(closing && n === 1))
      out.push({ n, line, error: `element ${n} is empty (two commas in a row, or a comma before "]")` });
  }

  /** The elements that end in this chunk. */
  feed(chunk: Buffer, out: ArrayRead[]): void {
    let i = this.carry;
    this.carry = 0;
    let from = this.phase === 'inside' ? 0 : -1; // where the current element's bytes in this chunk start
    let { depth, inString, line, started, phase } = this;
    const length = chunk.length;
    while (i < length) {
      const b = chunk[i];
      if (inString) {
        if (b === BACKSLASH) i += 2;
        else {
          if (b === QUOTE) inString = false;
          i += 1;
        }
        continue;
      }
      if (b === NEWLINE) line += 1;
      if (phase !== 'inside') {
        if (phase === 'before' && b === OPEN_BRACKET) {
          phase = 'inside';
          this.n = 1;
          started = false;
          from = i + 1;
        } else if (!isSpace(b) && !this.junkReported) {
          this.junkReported = true;
          const where = phase === 'before' ? 'expected "[" to open the array' : `text after the array's closing "]"`;
          out.push({ n: 0, line, error: `line ${line}: ${where}` });
        }
        i += 1;
        continue;
      }
      if (b === QUOTE || b === OPEN_BRACE || b === OPEN_BRACKET) {
        if (b === QUOTE) inString = true;
        else depth += 1;
        if (!started) {
          started = true;
          this.startLine = line;
        }
      } else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && depth > 0) depth -= 1;
      else if (depth === 0 && (b === COMMA || b === CLOSE_BRACKET)) {
        this.take(chunk.subarray(from, i));
        this.started = started;
        this.finish(out, b === CLOSE_BRACKET);
        if (b === COMMA) this.n += 1;
        else phase = 'after';
        started = false;
        from = i + 1;
      } else if (!started && !isSpace(b)) {
        started = true;
        this.startLine = line;
      }
      i += 1;
    }
    this.carry = i - length;
    if (phase === 'inside') this.take(chunk.subarray(Math.max(from, 0)));
    Object.assign(this, { depth, inString, line, started, phase });
  }

  /** At the file's end: inside the array, the file was cut short. */
  end(out: ArrayRead[]): void {
    if (this.phase === 'inside') out.push({ n: this.n, line: this.line, cutShort: true });
  }
}

export async function* arrayElements(input: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<ArrayRead> {
  const splitter = new ArraySplitter(maxBytes);
  const out: ArrayRead[] = [];
  for await (const chunk of input) {
    splitter.feed(chunk, out);
    yield* out;
    out.length = 0;
  }
  splitter.end(out);
  yield* out;
}
