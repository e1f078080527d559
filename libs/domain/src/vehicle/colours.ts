/**
 * The colours vehicles here come in, by the hex the record keeps (`#RGB` or `#RRGGBB`, upper case) and the name
 * people say ("White", not "#FFFFFF"): on the sticker, on the public check and in the dashboard. The key names the
 * colour for a translation; the name is its English word. A colour not in the list has no name.
 */
export const VEHICLE_COLOURS: ReadonlyArray<readonly [hex: string, key: string, name: string]> = [
  ['#FFFFFF', 'white', 'White'],
  ['#000000', 'black', 'Black'],
  ['#C0C0C0', 'silver', 'Silver'],
  ['#808080', 'grey', 'Grey'],
  ['#FF0000', 'red', 'Red'],
  ['#800000', 'maroon', 'Maroon'],
  ['#0000FF', 'blue', 'Blue'],
  ['#000080', 'navy', 'Navy blue'],
  ['#008000', 'green', 'Green'],
  ['#FFFF00', 'yellow', 'Yellow'],
  ['#FFD700', 'gold', 'Gold'],
  ['#FFA500', 'orange', 'Orange'],
  ['#8B4513', 'brown', 'Brown'],
  ['#F5F5DC', 'beige', 'Beige'],
  ['#800080', 'purple', 'Purple'],
];

/** `#fff` as `#FFFFFF`, so both spellings of a colour find it. */
const longHex = (hex: string) => {
  const upper = hex.trim().toUpperCase();
  return /^#[0-9A-F]{3}$/.test(upper) ? `#${[...upper.slice(1)].map((c) => c + c).join('')}` : upper;
};

/** The listed colour of a stored hex (its key and English name), or undefined when it has no name here. */
export function vehicleColour(hex: string): { key: string; name: string } | undefined {
  const found = VEHICLE_COLOURS.find(([h]) => h === longHex(hex));
  return found && { key: found[1], name: found[2] };
}
