// The image types a photo may be, told by its first bytes (never its name or Content-Type), and the same image without
// the metadata that can say where it was taken. Hand-written (docs/storage.md says why): no image library is installed
// (sharp and its native build are not; file-type is only a transitive, ES-module-only dependency of @nestjs/common), and
// both jobs read a few container headers, never the pixels.

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The image type of the bytes (JPEG, PNG or WebP), or undefined for anything else. */
export function imageTypeOf(bytes: Buffer): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}

/** JPEG segments that can carry a location: APP1 (Exif with its GPS IFD, and XMP) and APP13 (IPTC). */
const JPEG_LOCATION_MARKERS = new Set([0xe1, 0xed]);
/** PNG chunks that can: eXIf, and the text chunks (XMP travels in iTXt). */
const PNG_LOCATION_CHUNKS = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);
/** WebP chunks that can: EXIF and XMP, each flagged in VP8X. */
const WEBP_LOCATION_CHUNKS = new Set(['EXIF', 'XMP ']);

/**
 * The image without the metadata that can carry its location (the whole Exif block goes, its orientation too: the
 * dashboard draws the photo upright on a canvas before sending). Undefined when the bytes are not a whole image of
 * their type (a truncated upload, a forged header).
 */
export function withoutLocation(bytes: Buffer, type: ImageType): Buffer | undefined {
  if (type === 'image/jpeg') return jpegWithout(bytes);
  if (type === 'image/png') return pngWithout(bytes);
  return webpWithout(bytes);
}

function jpegWithout(bytes: Buffer): Buffer | undefined {
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1];
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    // Markers without a length: restart markers and TEM.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      kept.push(bytes.subarray(at, at + 2));
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return undefined;
    // Start of scan: the compressed image follows, up to the end; nothing after it is metadata.
    if (marker === 0xda) {
      kept.push(bytes.subarray(at));
      return Buffer.concat(kept);
    }
    if (!JPEG_LOCATION_MARKERS.has(marker)) kept.push(bytes.subarray(at, at + 2 + length));
    at += 2 + length;
  }
  return undefined;
}

function pngWithout(bytes: Buffer): Buffer | undefined {
  const kept: Buffer[] = [bytes.subarray(0, 8)];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > bytes.length) return undefined;
    if (!PNG_LOCATION_CHUNKS.has(type)) kept.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') return Buffer.concat(kept);
  }
  return undefined;
}

function webpWithout(bytes: Buffer): Buffer | undefined {
  const chunks: Buffer[] = [];
  let at = 12;
  while (at + 8 <= bytes.length) {
    const fourcc = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const end = at + 8 + size + (size % 2);
    if (at + 8 + size > bytes.length) return undefined;
    if (!WEBP_LOCATION_CHUNKS.has(fourcc)) {
      const chunk = Buffer.from(bytes.subarray(at, Math.min(end, bytes.length)));
      // VP8X flags: clear "has EXIF" (0x08) and "has XMP" (0x04), whose chunks are gone.
      if (fourcc === 'VP8X' && size >= 1) chunk[8] &= ~0x0c;
      chunks.push(chunk);
    }
    at = end;
  }
  if (at < bytes.length || chunks.length === 0) return undefined;
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}
