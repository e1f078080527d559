import { VEHICLE_COLOURS, vehicleColourKey } from '@transport/domain';
import { words as w } from './i18n';

export { VEHICLE_COLOURS };

/** A stored colour in words ("White"), or its hex when it has no name here. */
export function colourName(hex: string | undefined): string {
  if (!hex) return w.vehicle.none;
  const key = vehicleColourKey(hex);
  return key ? w.colours[key as keyof typeof w.colours] : hex;
}

/** What was typed (a colour's name in any case, or a hex) as the hex the API takes; anything else as typed. */
export function colourHex(typed: string): string {
  const text = typed.trim();
  const named = VEHICLE_COLOURS.find(([, key]) => w.colours[key].toLowerCase() === text.toLowerCase());
  return named ? named[0] : text;
}
