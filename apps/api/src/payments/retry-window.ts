/**
 * The retry count that keeps a job retried for at least `hours` when the delay starts at `first` seconds, doubles,
 * and is capped at `max` seconds. pg-boss waits min(max, first * 2^c * (1 + random)) before retry c (from 0), so the
 * sum of min(max, first * 2^c) is a lower bound of the time covered.
 */
export function retriesFor(hours: number, first: number, max: number): number {
  const target = hours * 3600;
  let total = 0;
  let retries = 0;
  while (total < target) {
    total += Math.min(max, first * 2 ** retries);
    retries += 1;
  }
  return retries;
}
