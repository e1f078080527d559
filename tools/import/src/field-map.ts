import type { Collection } from './collections';
import type { Doc } from './records';

/**
 * Fields older versions of the original's schemas named otherwise (British spellings of the licence fields, `colour`),
 * read under today's names wherever the collection knows the new name and not the old. The operator extends it with
 * a `fields` section in the mapping file (`--map`): `collection.oldName` (or `oldName` for every collection) -> name.
 */
export const OLDER_FIELD_NAMES: Readonly<Record<string, string>> = {
  licence: 'license',
  licenceClass: 'licenseClass',
  licenceExpiry: 'licenseExpiry',
  licenceIssueDate: 'licenseIssueDate',
  colour: 'color',
};

/** A rename applied, per collection and field, with how many records had it. */
export interface Renamed {
  collection: string;
  renamedField: string;
  to: string;
  records: number;
}

/** Reads records' fields under the names the import knows: the older names above, and the operator's. */
export class FieldMap {
  /** collection name -> old field -> field here. */
  private readonly renames = new Map<string, Map<string, string>>();
  private readonly counts = new Map<string, Renamed>();

  constructor(collections: readonly Collection[], operator: Readonly<Record<string, unknown>> = {}) {
    const set = (c: Collection, from: string, to: string) => {
      const map = this.renames.get(c.name) ?? new Map<string, string>();
      map.set(from, to);
      this.renames.set(c.name, map);
    };
    for (const c of collections)
      for (const [from, to] of Object.entries(OLDER_FIELD_NAMES))
        if (c.known.includes(to) && !c.known.includes(from)) set(c, from, to);
    for (const [key, to] of Object.entries(operator)) {
      const dot = key.indexOf('.');
      const named = dot === -1 ? undefined : collections.find((c) => c.name === key.slice(0, dot));
      const from = named ? key.slice(dot + 1) : key;
      if (dot !== -1 && !named)
        throw new Error(
          `mapping: fields: "${key}" names no collection; expected collection.field or field (${collections.map((c) => c.name).join(', ')})`,
        );
      const targets = (named ? [named] : collections).filter((c) => typeof to === 'string' && c.known.includes(to));
      if (targets.length === 0)
        throw new Error(
          `mapping: fields: "${key}" -> ${JSON.stringify(to)}: the name here must be a field the import reads${named ? ` in ${named.name}` : ''}`,
        );
      for (const c of targets) set(c, from, to as string);
    }
  }

  /**
   * The record with each old name read as the new one (counted for the report). A record holding both keeps the
   * new name's value; the old one stays under its name, so it is listed as an unknown field, never dropped silently.
   */
  read(collection: string, doc: Doc): Doc {
    const renames = this.renames.get(collection);
    if (!renames) return doc;
    let out: Doc | undefined;
    for (const [from, to] of renames) {
      if (!Object.hasOwn(doc, from) || Object.hasOwn(doc, to)) continue;
      out ??= { ...doc };
      out[to] = out[from];
      delete out[from];
      const key = `${collection}.${from}`;
      const entry = this.counts.get(key) ?? { collection, renamedField: from, to, records: 0 };
      entry.records += 1;
      this.counts.set(key, entry);
    }
    return out ?? doc;
  }

  renamed(): Renamed[] {
    return [...this.counts.values()];
  }
}
