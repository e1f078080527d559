import { VEHICLE_COLOURS, vehicleColour } from '@transport/domain';
import { words as w } from './i18n';

/**
 * The colours vehicles here come in (the domain's list, `VEHICLE_COLOURS`), in the person's words: people type and
 * read "White", the record keeps "#FFFFFF". A colour not in the list is typed and shown as its hex.
 */
export { VEHICLE_COLOURS };

/** A stored colour in words ("White"), or its hex when it has no name here. */
export function colourName(hex: string | undefined): string {
  if (!hex) return w.vehicle.none;
  const named = vehicleColour(hex);
  return named ? (w.colours[named.key] ?? named.name) : hex;
}

/** What was typed (a colour's name in any case, or a hex) as the hex the API takes; anything else as typed. */
export function colourHex(typed: string): string {
  const text = typed.trim();
  const named = VEHICLE_COLOURS.find(([, key]) => w.colours[key].toLowerCase() === text.toLowerCase());
  return named ? named[0] : text;
}
