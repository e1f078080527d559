import { words as w } from './i18n';

/**
 * The colours vehicles here come in, by the hex the API stores (`#RGB` or `#RRGGBB`, upper case): people type and read
 * "White", the record keeps "#FFFFFF". A colour not in the list is typed and shown as its hex.
 */
export const VEHICLE_COLOURS: ReadonlyArray<readonly [hex: string, key: string]> = [
  ['#FFFFFF', 'white'],
  ['#000000', 'black'],
  ['#C0C0C0', 'silver'],
  ['#808080', 'grey'],
  ['#FF0000', 'red'],
  ['#800000', 'maroon'],
  ['#0000FF', 'blue'],
  ['#000080', 'navy'],
  ['#008000', 'green'],
  ['#FFFF00', 'yellow'],
  ['#FFD700', 'gold'],
  ['#FFA500', 'orange'],
  ['#8B4513', 'brown'],
  ['#F5F5DC', 'beige'],
  ['#800080', 'purple'],
];

/** `#FFF` as `#FFFFFF`, so both spellings of a colour find its name. */
const long = (hex: string) => (/^#[0-9A-F]{3}$/.test(hex) ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex);

/** A stored colour in words ("White"), or its hex when it has no name here. */
export function colourName(hex: string | undefined): string {
  if (!hex) return w.vehicle.none;
  const key = VEHICLE_COLOURS.find(([h]) => h === long(hex.toUpperCase()))?.[1];
  return key ? w.colours[key] : hex;
}

/** What was typed (a colour's name in any case, or a hex) as the hex the API takes; anything else as typed. */
export function colourHex(typed: string): string {
  const text = typed.trim();
  const named = VEHICLE_COLOURS.find(([, key]) => w.colours[key].toLowerCase() === text.toLowerCase());
  return named ? named[0] : text;
}
