import { GSM7_BASIC, GSM7_EXTENSION, smsParts } from './sms-parts';

describe('smsParts', () => {
  it('holds the 128 positions of the GSM 03.38 default alphabet and the 10 characters of its extension table', () => {
    expect([...GSM7_BASIC]).toHaveLength(128);
    expect(new Set(GSM7_BASIC).size).toBe(128);
    expect([...GSM7_EXTENSION]).toHaveLength(10);
  });

  it('counts every character of the default alphabet (but ESC) as one septet', () => {
    for (const c of GSM7_BASIC) {
      if (c === '\u001b') continue;
      expect(smsParts(c)).toEqual({ encoding: 'gsm7', parts: 1, units: 1 });
    }
  });

  it('counts every character of the extension table as two septets', () => {
    for (const c of GSM7_EXTENSION) expect(smsParts(c)).toEqual({ encoding: 'gsm7', parts: 1, units: 2 });
  });

  it('sends ESC alone, and every character of neither table, as UCS-2', () => {
    for (const c of ['\u001b', 'Ɛ', 'Ɔ', 'ɛ', 'ɔ', 'Ŋ', '’', '“', 'ç', 'Á', '\t', '`', '😀'])
      expect(smsParts(c).encoding).toBe('ucs2');
  });

  it('is empty for an empty text', () => {
    expect(smsParts('')).toEqual({ encoding: 'gsm7', parts: 0, units: 0 });
  });

  it('fits 160 septets in one part, and 161 in two of 153', () => {
    expect(smsParts('a'.repeat(160))).toEqual({ encoding: 'gsm7', parts: 1, units: 160 });
    expect(smsParts('a'.repeat(161))).toEqual({ encoding: 'gsm7', parts: 2, units: 161 });
    expect(smsParts('a'.repeat(306)).parts).toBe(2);
    expect(smsParts('a'.repeat(307)).parts).toBe(3);
  });

  it('counts extension characters twice against the limits', () => {
    expect(smsParts('€'.repeat(80))).toEqual({ encoding: 'gsm7', parts: 1, units: 160 });
    expect(smsParts('a' + '€'.repeat(80)).parts).toBe(2);
  });

  it('never splits an escape pair: a part that would end between ESC and the character ends before it', () => {
    // 152 septets then a 2-septet character: 154 > 153, so the euro starts part 2; 152 + 2 + 152 = 306 still needs 3.
    const text = 'a'.repeat(152) + '€' + 'a'.repeat(152);
    expect(smsParts(text)).toEqual({ encoding: 'gsm7', parts: 3, units: 306 });
  });

  it('fits 70 UCS-2 characters in one part, and 71 in two of 67', () => {
    expect(smsParts('Ɛ'.repeat(70))).toEqual({ encoding: 'ucs2', parts: 1, units: 70 });
    expect(smsParts('Ɛ'.repeat(71))).toEqual({ encoding: 'ucs2', parts: 2, units: 71 });
    expect(smsParts('Ɛ'.repeat(134)).parts).toBe(2);
    expect(smsParts('Ɛ'.repeat(135)).parts).toBe(3);
  });

  it('switches a whole text to UCS-2 for one letter such as Ɔ', () => {
    expect(smsParts('a'.repeat(100))).toMatchObject({ encoding: 'gsm7', parts: 1 });
    expect(smsParts('a'.repeat(99) + 'Ɔ')).toEqual({ encoding: 'ucs2', parts: 2, units: 100 });
  });

  it('counts a character outside the BMP as two units and never splits its pair', () => {
    expect(smsParts('😀')).toEqual({ encoding: 'ucs2', parts: 1, units: 2 });
    // 66 units then a pair: 68 > 67, so the emoji starts part 2.
    expect(smsParts('Ɛ'.repeat(66) + '😀' + 'Ɛ'.repeat(5))).toEqual({ encoding: 'ucs2', parts: 2, units: 73 });
  });
});
