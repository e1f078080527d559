/**
 * How many SMS parts a text costs (what the gateway bills). A text whose every character is in the GSM 03.38 default
 * alphabet (3GPP TS 23.038, 6.2.1) goes as GSM-7: 160 septets in a single SMS, 153 per part of a longer one (the
 * concatenation header takes 7); a character of the extension table (6.2.1.1: `^ { } \ [ ~ ] | €` and the form feed)
 * takes two septets (ESC and itself), and a part never ends between the two. One character outside both tables
 * (Ɛ, Ɔ, an emoji, a curly quote) sends the whole text as UCS-2: 70 characters single, 67 per part, counted in
 * UTF-16 code units (an emoji outside the Basic Multilingual Plane takes two, and a part never splits a pair).
 *
 * No npm package for this was installed; this is the small, table-tested function in its place.
 */
export type SmsEncoding = 'gsm7' | 'ucs2';

export interface SmsParts {
  encoding: SmsEncoding;
  /** Parts billed (0 for an empty text). */
  parts: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
}

/** GSM 03.38 default alphabet, in table order (0x00..0x7F); ESC (0x1B) is not a character of its own. */
export const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The extension table's characters (each sent as ESC + itself: two septets). */
export const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set([...GSM7_BASIC].filter((c) => c !== '\u001b'));
const EXTENSION = new Set(GSM7_EXTENSION);

const LIMITS = {
  gsm7: { single: 160, part: 153 },
  ucs2: { single: 70, part: 67 },
} as const;

/** The septets of each character, or undefined when one is not GSM-7 (the text then goes as UCS-2). */
function septets(text: string): number[] | undefined {
  const sizes: number[] = [];
  for (const c of text) {
    if (BASIC.has(c)) sizes.push(1);
    else if (EXTENSION.has(c)) sizes.push(2);
    else return undefined;
  }
  return sizes;
}

/** Units of each unsplittable piece (a GSM-7 character, or a UTF-16 character with its surrogate pair). */
function pieces(text: string): { encoding: SmsEncoding; sizes: number[] } {
  const gsm = septets(text);
  if (gsm) return { encoding: 'gsm7', sizes: gsm };
  return { encoding: 'ucs2', sizes: [...text].map((c) => c.length) };
}

/** The parts a text is sent in, as the gateway splits it (a piece that does not fit starts the next part). */
export function smsParts(text: string): SmsParts {
  const { encoding, sizes } = pieces(text);
  const units = sizes.reduce((a, b) => a + b, 0);
  const limit = LIMITS[encoding];
  if (units === 0) return { encoding, parts: 0, units };
  if (units <= limit.single) return { encoding, parts: 1, units };
  let parts = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > limit.part) {
      parts += 1;
      used = 0;
    }
    used += size;
  }
  return { encoding, parts, units };
}
