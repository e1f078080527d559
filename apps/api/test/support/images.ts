import { crc32 } from 'node:zlib';

// Small images for the photo tests, built byte by byte: each has the container structure the service reads (JPEG
// segments, PNG chunks with their CRCs, WebP RIFF chunks) and metadata saying where it was taken.

export const GPS_TEXT = 'GPSLatitude 5.6037 N GPSLongitude 0.1870 W';

const segment = (marker: number, payload: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

/** A baseline JPEG's structure: JFIF, an Exif APP1 carrying a location (unless `gps` is false), a table, the scan. */
export function jpeg(options: { gps?: boolean; seed?: number } = {}): Buffer {
  const parts = [
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    ...(options.gps === false ? [] : [segment(0xe1, Buffer.from(`Exif\0\0${GPS_TEXT}`, 'latin1'))]),
    segment(0xdb, Buffer.alloc(65, options.seed ?? 1)),
    segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x12, 0x34, 0x56, options.seed ?? 0, 0xff, 0xd9]),
  ];
  return Buffer.concat(parts);
}

const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
};

/** A 1x1 PNG with an eXIf chunk carrying a location. */
export function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('eXIf', Buffer.from(`MM\0*${GPS_TEXT}`, 'latin1')),
    chunk('IDAT', Buffer.from('789c63f8cfc0f01f0005000201', 'hex')),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const riffChunk = (fourcc: string, data: Buffer) => {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  return Buffer.concat([
    Buffer.from(fourcc, 'latin1'),
    size,
    data,
    data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0),
  ]);
};

/** An extended WebP (VP8X flagging EXIF) with an EXIF chunk carrying a location. */
export function webp(): Buffer {
  const body = Buffer.concat([
    riffChunk('VP8X', Buffer.from([0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
    riffChunk('VP8L', Buffer.from([0x2f, 0, 0, 0, 0x10, 0x07])),
    riffChunk('EXIF', Buffer.from(`MM\0*${GPS_TEXT}!`, 'latin1')),
  ]);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}
