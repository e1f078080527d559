import { GPS_TEXT, jpeg, png, webp } from '../../test/support/images';
import { imageTypeOf, withoutLocation } from './image-bytes';

const hasGps = (bytes: Buffer) => bytes.includes(Buffer.from(GPS_TEXT, 'latin1'));

describe('imageTypeOf', () => {
  it('tells JPEG, PNG and WebP by their first bytes, and nothing else', () => {
    expect(imageTypeOf(jpeg())).toBe('image/jpeg');
    expect(imageTypeOf(png())).toBe('image/png');
    expect(imageTypeOf(webp())).toBe('image/webp');
    for (const other of ['GIF89a....', '<svg xmlns="http://www.w3.org/2000/svg"/>', '%PDF-1.7', 'RIFF....WAVEfmt ', ''])
      expect(imageTypeOf(Buffer.from(other, 'latin1'))).toBeUndefined();
    expect(imageTypeOf(Buffer.from([0xff, 0xd8]))).toBeUndefined();
  });
});

describe('withoutLocation', () => {
  it.each([
    ['image/jpeg', jpeg()],
    ['image/png', png()],
    ['image/webp', webp()],
  ] as const)('removes the metadata that says where a %s was taken, and keeps the image', (type, bytes) => {
    expect(hasGps(bytes)).toBe(true);
    const stripped = withoutLocation(bytes, type);
    expect(stripped).toBeDefined();
    expect(hasGps(stripped!)).toBe(false);
    expect(imageTypeOf(stripped!)).toBe(type);
    expect(stripped!.length).toBeLessThan(bytes.length);
    // Stripping twice changes nothing more.
    expect(withoutLocation(stripped!, type)!.equals(stripped!)).toBe(true);
  });

  it('keeps a JPEG without a location byte for byte', () => {
    const plain = jpeg({ gps: false });
    expect(withoutLocation(plain, 'image/jpeg')!.equals(plain)).toBe(true);
  });

  it('clears the WebP header flag of the EXIF chunk it removed, and fixes the RIFF size', () => {
    const stripped = withoutLocation(webp(), 'image/webp')!;
    expect(stripped[20] & 0x08).toBe(0);
    expect(stripped.readUInt32LE(4)).toBe(stripped.length - 8);
  });

  it.each([
    ['image/jpeg', jpeg().subarray(0, 30)],
    ['image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.from('not a segment at all')])],
    ['image/png', png().subarray(0, 40)],
    ['image/webp', webp().subarray(0, 35)],
    ['image/webp', Buffer.from('RIFF\x04\0\0\0WEBP', 'latin1')],
  ] as const)('answers nothing for a %s cut short or forged', (type, bytes) => {
    expect(withoutLocation(bytes, type)).toBeUndefined();
  });
});
