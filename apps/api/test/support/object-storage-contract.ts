import { randomBytes } from 'node:crypto';
import type { ObjectStorage } from '../../src/core/ports';
import { sha256Hex } from '../../src/persistence/object-keys';

const meta = (bytes: Uint8Array, contentType = 'image/jpeg') => ({ contentType, sha256: sha256Hex(bytes) });

async function read(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * What every ObjectStorage adapter must do, run on each (object-storage-contracts.spec.ts): as the repositories'
 * contract suite runs on every repository adapter. `fresh` answers the adapter over an empty store.
 */
export function objectStorageContract(name: string, fresh: () => Promise<ObjectStorage>): void {
  describe(`ObjectStorage contract: ${name}`, () => {
    let storage: ObjectStorage;
    beforeEach(async () => {
      storage = await fresh();
    });

    it('gives back the bytes it was given, every byte value, with their type, size and SHA-256', async () => {
      const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
      await storage.put('photos/a/one', bytes, meta(bytes, 'image/png'));
      const stored = await storage.get('photos/a/one');
      expect(stored).toMatchObject({ contentType: 'image/png', sha256: sha256Hex(bytes), size: 512 });
      expect((await read(stored!.body)).equals(bytes)).toBe(true);
    });

    it('keeps a 5 MB object whole', async () => {
      const bytes = randomBytes(5 * 1024 * 1024);
      await storage.put('photos/large', bytes, meta(bytes));
      const stored = await storage.get('photos/large');
      expect(stored?.size).toBe(bytes.length);
      expect(sha256Hex(await read(stored!.body))).toBe(sha256Hex(bytes));
    });

    it('answers nothing for a key that holds nothing, and keys are whole names (no prefix matches)', async () => {
      const bytes = Buffer.from('parent');
      await storage.put('photos/b', bytes, meta(bytes));
      expect(await storage.get('photos/b/child')).toBeUndefined();
      expect(await storage.get('photos')).toBeUndefined();
      expect(await storage.exists('photos/b/child')).toBe(false);
      expect(await storage.exists('photos/b')).toBe(true);
    });

    it('replaces what a key held with a second put', async () => {
      const first = Buffer.from('first');
      const second = Buffer.from('second, longer');
      await storage.put('photos/c', first, meta(first));
      await storage.put('photos/c', second, meta(second, 'image/webp'));
      const stored = await storage.get('photos/c');
      expect(stored).toMatchObject({ contentType: 'image/webp', size: second.length, sha256: sha256Hex(second) });
      expect((await read(stored!.body)).toString()).toBe('second, longer');
    });

    it('deletes, and deleting a key that holds nothing is no error', async () => {
      const bytes = Buffer.from('gone');
      await storage.put('photos/d', bytes, meta(bytes));
      await storage.delete('photos/d');
      expect(await storage.exists('photos/d')).toBe(false);
      expect(await storage.get('photos/d')).toBeUndefined();
      await expect(storage.delete('photos/d')).resolves.toBeUndefined();
    });

    it('refuses bytes whose SHA-256 is not the one given, storing nothing', async () => {
      const bytes = Buffer.from('the bytes');
      await expect(
        storage.put('photos/e', bytes, { contentType: 'image/jpeg', sha256: sha256Hex(Buffer.from('other')) }),
      ).rejects.toThrow(/SHA-256/);
      expect(await storage.exists('photos/e')).toBe(false);
    });

    it('refuses keys outside the allowed shape', async () => {
      const bytes = Buffer.from('x');
      for (const key of ['', '../etc/passwd', 'a//b', '/leading', 'with space', 'x'.repeat(513)])
        await expect(storage.put(key, bytes, meta(bytes))).rejects.toThrow(/Object key/);
      await expect(storage.get('a/../b')).rejects.toThrow(/Object key/);
    });

    it('makes a short-lived URL that serves the bytes, or none (then the API serves them)', async () => {
      const bytes = Buffer.from('served by URL');
      await storage.put('photos/f', bytes, meta(bytes));
      const url = await storage.temporaryUrl('photos/f', 60);
      if (storage.kind === 'postgresql') {
        expect(url).toBeUndefined();
        return;
      }
      expect(url).toEqual(expect.stringMatching(/^https?:\/\//));
      const answer = await fetch(url!);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
    });
  });
}
