import { readFileSync, writeFileSync } from 'node:fs';
import { Document, parse as parseYaml } from 'yaml';
import { allowedValues, fold, isDomainValue, normalise, type ValueKind } from './normaliser';
import type { Doc } from './records';

/** An operator's mapping (`--map FILE`): field -> the original's value -> the value here. */
export type ValueMap = Record<string, Record<string, string>>;

/** A value of the original that neither the normaliser nor the mapping could place. */
export interface Unplaced {
  /** `collection.field`, as a mapping file names it. */
  field: string;
  kind: ValueKind;
  /** The first spelling read (others that fold the same count with it). */
  value: string;
  records: number;
  example?: string;
}

/** A value the import changed to the domain's: the operator sees each one, with how many records held it. */
export interface Folded {
  field: string;
  value: string;
  to: string;
  records: number;
  /** Whether the operator's mapping placed it (otherwise the normaliser did). */
  mapped: boolean;
}

/**
 * Past this many distinct values of one field, further ones are counted but not listed: a free-text column read as
 * an enumeration cannot make the import's memory grow with the export.
 */
export const MAX_DISTINCT_PER_FIELD = 1000;

/** A record's value that could not be placed: the record is refused with all of them named. */
export class ValueRefusal extends Error {
  constructor(readonly problems: readonly { path: string; value: string; kind: ValueKind }[]) {
    super(
      problems
        .map((p) => `${p.path} ${JSON.stringify(p.value)} is none of ${allowedValues(p.kind)}`)
        .join('; ')
        .concat(': map it in a mapping file (--write-map, then --map)'),
    );
  }
}

const at = (doc: Doc, path: string): unknown =>
  path.split('.').reduce<unknown>((o, key) => (o as Doc | null | undefined)?.[key], doc);

/** A copy of the document with the value at `path` replaced (the objects along the path copied, the rest shared). */
function replaced(doc: Doc, path: string, value: string): Doc {
  const [head, ...rest] = path.split('.');
  return { ...doc, [head]: rest.length === 0 ? value : replaced(doc[head] as Doc, rest.join('.'), value) };
}

/**
 * Reads the values people typed: each enumerated field of a record through the operator's mapping, then the
 * normaliser; tallies what it folded and what it could not place (per `collection.field`, by folded spelling).
 */
export class ValueReader {
  /** `collection.field` or `field` -> folded original -> value here. */
  private readonly mapping = new Map<string, Map<string, string>>();
  private readonly folded = new Map<string, Map<string, Folded>>();
  private readonly unplaced = new Map<string, Map<string, Unplaced>>();
  /** Records whose value was changed, per field: every one counted, listed or not. */
  readonly foldedRecords = new Map<string, number>();
  /** Records with a value past MAX_DISTINCT_PER_FIELD, per field and kind (folded, unplaced): counted, not listed. */
  readonly notListed = new Map<string, { field: string; kind: 'folded' | 'unplaced'; records: number }>();

  constructor(map: ValueMap = {}, kinds: ReadonlyMap<string, ValueKind> = new Map()) {
    for (const [field, entries] of Object.entries(map)) {
      const kind = kinds.get(field);
      if (!kind)
        throw new Error(
          `mapping: "${field}" is not a field the import reads as a value; expected one of ${[...kinds.keys()].join(', ')}`,
        );
      if (entries === null || typeof entries !== 'object' || Array.isArray(entries))
        throw new Error(`mapping: "${field}" must map original values to values here`);
      const table = new Map<string, string>();
      for (const [original, here] of Object.entries(entries)) {
        // An empty line of a written mapping file, not yet filled in: the value stays unplaced.
        if (here === null || here === undefined || here === '') continue;
        if (typeof here !== 'string' || !isDomainValue(kind, here))
          throw new Error(
            `mapping: ${field} ${JSON.stringify(original)} -> ${JSON.stringify(here)}: the value here must be one of ${allowedValues(kind)}`,
          );
        table.set(fold(original), here);
      }
      this.mapping.set(field, table);
    }
  }

  /**
   * The record with each enumerated field (`values`: path -> kind) as a domain value; absent and non-text values are
   * left for the record's mapping to judge. Throws a ValueRefusal naming every value it could not place.
   */
  /**
   * The document with its enumerated values placed; each value changed is also written to `folded` (by path: what
   * the original stored and what it became), for the records that keep the original's spelling beside their own.
   */
  read(
    collection: string,
    doc: Doc,
    values: Readonly<Record<string, ValueKind>>,
    id?: string,
    folded: Record<string, { original: string; normalised: string }> = {},
  ): Doc {
    let out = doc;
    const problems: { path: string; value: string; kind: ValueKind }[] = [];
    for (const [path, kind] of Object.entries(values)) {
      const raw = at(doc, path);
      if (typeof raw !== 'string' || raw === '') continue;
      const field = `${collection}.${path}`;
      const key = fold(raw);
      const byOperator = this.mapping.get(field)?.get(key) ?? this.mapping.get(path)?.get(key);
      const value = byOperator ?? normalise(kind, raw);
      if (value === undefined) {
        problems.push({ path, value: raw, kind });
        this.tally('unplaced', this.unplaced, field, key, () => ({ field, kind, value: raw, records: 0, example: id }));
        continue;
      }
      if (value === raw) continue;
      folded[path] = { original: raw, normalised: value };
      this.foldedRecords.set(field, (this.foldedRecords.get(field) ?? 0) + 1);
      this.tally('folded', this.folded, field, raw, () => ({
        field,
        value: raw,
        to: value,
        records: 0,
        mapped: !!byOperator,
      }));
      out = replaced(out, path, value);
    }
    if (problems.length > 0) throw new ValueRefusal(problems);
    return out;
  }

  private tally<T extends { records: number }>(
    kind: 'folded' | 'unplaced',
    into: Map<string, Map<string, T>>,
    field: string,
    key: string,
    create: () => T,
  ): void {
    const values = into.get(field) ?? new Map<string, T>();
    into.set(field, values);
    const entry = values.get(key);
    if (entry) entry.records += 1;
    else if (values.size < MAX_DISTINCT_PER_FIELD) values.set(key, { ...create(), records: 1 });
    else {
      const over = this.notListed.get(`${kind} ${field}`) ?? { field, kind, records: 0 };
      over.records += 1;
      this.notListed.set(`${kind} ${field}`, over);
    }
  }

  /** Every value changed, by field. */
  foldedValues(): Folded[] {
    return [...this.folded.values()].flatMap((m) => [...m.values()]);
  }

  /** Every value not placed, by field, most frequent first. */
  unplacedValues(): Unplaced[] {
    return [...this.unplaced.values()].flatMap((m) => [...m.values()].sort((a, b) => b.records - a.records));
  }
}

/** A mapping file, JSON or YAML (YAML reads JSON too). */
export function readValueMap(path: string): ValueMap {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`--map ${path}: ${(error as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`--map ${path}: expected field -> { original value: value here }`);
  return parsed as ValueMap;
}

/**
 * A mapping file to fill in: the operator's mapping so far, and each value not placed with an empty value here.
 * YAML (by its extension, `.yaml` or `.yml`) says beside each field what it may hold and beside each value how many
 * records hold it; JSON holds only the mapping.
 */
export function writeValueMap(path: string, unplaced: readonly Unplaced[], existing: ValueMap = {}): void {
  const map: ValueMap = structuredClone(existing);
  for (const u of unplaced) {
    const entries = (map[u.field] ??= {});
    if (!(u.value in entries)) entries[u.value] = '';
  }
  if (!/\.ya?ml$/i.test(path)) {
    writeFileSync(path, `${JSON.stringify(map, null, 2)}\n`);
    return;
  }
  const document = new Document(map);
  document.commentBefore =
    ' Values the import could not place. Write the value here after each colon, then run with --map this file.';
  const kinds = new Map(unplaced.map((u) => [u.field, u.kind]));
  for (const pair of (document.contents as { items: { key: { value: string; commentBefore?: string } }[] }).items) {
    const kind = kinds.get(pair.key.value);
    if (kind) pair.key.commentBefore = ` ${pair.key.value}: one of ${allowedValues(kind)}`;
  }
  const notes = new Map(unplaced.map((u) => [`${u.field}\u0000${u.value}`, u]));
  for (const field of (document.contents as { items: { key: { value: string }; value: unknown }[] }).items) {
    const inner = field.value as { items: { key: { value: string }; value: { comment?: string } }[] };
    for (const entry of inner.items) {
      const u = notes.get(`${field.key.value}\u0000${entry.key.value}`);
      if (u) entry.value.comment = ` ${u.records} record${u.records === 1 ? '' : 's'}, e.g. ${u.example ?? '?'}`;
    }
  }
  writeFileSync(path, document.toString());
}
