/**
 * The inputs of the fuzz tier (fuzz.e2e.spec.ts): values made from the OpenAPI document's schemas, and the catalogue of
 * hostile values and request shapes they are swapped for. Everything random comes from one seeded generator, so a run
 * is replayed by its seed.
 */

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  nullable?: boolean;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  minProperties?: number;
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  hex(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += '0123456789abcdef'[this.int(16)];
    return s;
  }
}

/** Strings that once broke a service somewhere: control characters, odd unicode, lengths, injections, paths. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0007\u001b[31m\u001f\u007f',
  'line\r\nX-Injected: 1',
  '\t\v\f',
  'x'.repeat(3000),
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ 日本語 עברית \u202e',
  '\ud800',
  '\ufeff\u200b',
  '😀'.repeat(50),
  "' OR 1=1 --",
  '"; DROP TABLE vehicle; --',
  '%',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  '{"$gt":""}',
  '${7*7}',
  'null',
  'undefined',
  'true',
  '-1',
  '0',
  '1.5',
  '1e309',
  '-1e309',
  '9007199254740993',
  '99999999999999999999999999',
  '0x10',
  'NaN',
  'Infinity',
  '0000-01-01',
  '275760-09-13',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '2026-02-30',
  '2026-13-01',
  '2026-10-15T25:61:00Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '000000000000000000000000',
  'ffffffffffffffffffffffff',
  'FFFFFFFFFFFFFFFFFFFFFFFF',
  'gggggggggggggggggggggggg',
  '65a1b2c3d4e5f60718293a4',
  '65a1b2c3d4e5f60718293a4b0',
];

/** JSON values of every type, for body fields and whole bodies. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0,
  0.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  [],
  [null],
  {},
  { $gt: '' },
  ['a', 'b'],
  { nested: { deeper: [1, { x: 'y' }] } },
];

export function hostileValue(rng: Rng): unknown {
  return rng.chance(0.55) ? rng.pick(HOSTILE_STRINGS) : rng.pick(HOSTILE_VALUES);
}

/** An object nested `depth` levels deep. */
export function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Makes a value the schema accepts (examples first, as the document's authors meant them). */
export class ValueMaker {
  constructor(
    private readonly schemas: Record<string, Schema>,
    private readonly rng: Rng,
  ) {}

  resolve(schema: Schema): Schema {
    let s = schema;
    while (s.$ref) s = this.schemas[s.$ref.split('/').pop()!];
    if (s.allOf?.length === 1) return this.resolve({ ...s, ...s.allOf[0], allOf: undefined });
    return s;
  }

  make(given: Schema, name = '', depth = 0): unknown {
    const schema = this.resolve(given);
    if (schema.oneOf?.length) return this.make(this.rng.pick(schema.oneOf), name, depth);
    if (schema.anyOf?.length) return this.make(this.rng.pick(schema.anyOf), name, depth);
    if (schema.enum?.length) return this.rng.pick(schema.enum);
    if (schema.type === 'object' || schema.properties) {
      const out: Record<string, unknown> = {};
      if (depth > 4) return out;
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || this.rng.chance(0.5)) out[key] = this.make(property, key, depth + 1);
      }
      for (const key of Object.keys(schema.properties ?? {})) {
        if (Object.keys(out).length >= (schema.minProperties ?? 0)) break;
        if (!(key in out)) out[key] = this.make(schema.properties![key], key, depth + 1);
      }
      return out;
    }
    if (schema.type === 'array') {
      const count = 1 + this.rng.int(2);
      return Array.from({ length: count }, () => this.make(schema.items ?? {}, name, depth + 1));
    }
    if (schema.example !== undefined) return schema.example;
    if (schema.default !== undefined) return schema.default;
    switch (schema.type) {
      case 'integer':
      case 'number':
        return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 10, 1 + this.rng.int(5)));
      case 'boolean':
        return this.rng.chance(0.5);
      default:
        if (schema.format === 'date-time' || schema.format === 'date') return '2026-10-15T12:00:00.000Z';
        if (schema.pattern === '^[0-9a-f]{24}$') return `65a${this.rng.hex(21)}`;
        return `fuzz-${name || 'value'}-${this.rng.hex(6)}`;
    }
  }

  /**
   * The least a schema accepts: an object with its required properties only (and the first others, as many as
   * minProperties asks), each of them the least its own schema accepts; other values as `make` makes them.
   */
  makeRequired(given: Schema, name = '', depth = 0): unknown {
    const schema = this.resolve(given);
    if (schema.oneOf?.length) return this.makeRequired(schema.oneOf[0], name, depth);
    if (schema.anyOf?.length) return this.makeRequired(schema.anyOf[0], name, depth);
    if (schema.enum?.length) return schema.enum[0];
    if (schema.type === 'array') return [this.makeRequired(schema.items ?? {}, name, depth + 1)];
    if (schema.type !== 'object' && !schema.properties) return this.make(schema, name, depth);
    const keys = Object.keys(schema.properties ?? {});
    const wanted = new Set(schema.required ?? []);
    for (const key of keys) if (wanted.size < (schema.minProperties ?? 0)) wanted.add(key);
    const out: Record<string, unknown> = {};
    for (const key of keys) if (wanted.has(key)) out[key] = this.makeRequired(schema.properties![key], key, depth + 1);
    return out;
  }
}
