/**
 * The colours vehicles here come in, by the hex the API stores (`#RGB` or `#RRGGBB`, upper case): people type and read
 * "White", the record keeps "#FFFFFF". Each colour's key names it in the dashboard's words and in the SMS and USSD
 * message catalogues; a colour not in the list is shown as its hex.
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

/** The key of a stored colour (either spelling, any case), or undefined when it has no name here. */
export function vehicleColourKey(hex: string): string | undefined {
  return VEHICLE_COLOURS.find(([h]) => h === long(hex.toUpperCase()))?.[1];
}
