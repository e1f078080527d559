import { keysetPage } from './paging';

/** Collects the rejections nobody handled while `run` goes on (and a little after, when they are reported). */
async function unhandledDuring(run: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await run().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

const failLater = (message: string) =>
  new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(message)), 10));

describe('a page with its total', () => {
  const request = { limit: 10, count: true };

  it('rejects with the page query failure and leaves no failed count unhandled (every list)', async () => {
    const pageFailure = new Error('page query failed');
    const run = () =>
      keysetPage(
        request,
        async () => undefined,
        () => Promise.reject(pageFailure),
        (row: { id: string }) => row,
        () => failLater('count query failed'),
      );
    await expect(run()).rejects.toBe(pageFailure);
    expect(await unhandledDuring(run)).toEqual([]);
  });

  it('answers a total of zero on an empty page after an unknown cursor', async () => {
    const page = await keysetPage(
      { ...request, after: 'unknown' },
      async () => undefined,
      async () => [],
      (row: { id: string }) => row,
      async () => 0,
    );
    expect(page).toEqual({ items: [], total: 0 });
  });
});
