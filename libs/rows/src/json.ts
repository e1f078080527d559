/** A JSON object or array, as a `json`/`jsonb` column holds it. */
export type Json = { [key: string]: JsonValue } | JsonValue[];
export type JsonValue = string | number | boolean | null | Json;

/** A value as its JSON column stores it: what `JSON.stringify` writes (dates as ISO text, undefined fields left out). */
export function toJson(value: object): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}
