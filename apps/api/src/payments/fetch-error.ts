/** Why a fetch() got no answer, in a few words: "timed out", "ECONNREFUSED", "ECONNRESET", or the message. */
export function describeFetchError(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.code ?? e?.message ?? String(error);
}
