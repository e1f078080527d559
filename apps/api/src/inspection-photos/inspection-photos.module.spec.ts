import type { ObjectStorage } from '../core/storage-ports';
import { ObjectStorageShutdown } from './inspection-photos.module';

describe('ObjectStorageShutdown', () => {
  it("closes the object store's connections at the app's shutdown, and tolerates a store without any", () => {
    const close = jest.fn();
    new ObjectStorageShutdown({ close } as unknown as ObjectStorage).onApplicationShutdown();
    expect(close).toHaveBeenCalledTimes(1);
    expect(() => new ObjectStorageShutdown({} as ObjectStorage).onApplicationShutdown()).not.toThrow();
  });
});
