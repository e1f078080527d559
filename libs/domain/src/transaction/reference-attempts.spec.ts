import { answeringAttempt, holdsReference, type ReferenceAttempt } from './reference-attempts';

const attempt = (id: string, status: ReferenceAttempt['status'], minute: number): ReferenceAttempt => ({
  id,
  status,
  createdAt: new Date(Date.UTC(2026, 0, 1, 10, minute)),
});

describe('attempts under one merchant reference', () => {
  it('frees a reference once its payment failed, and only then', () => {
    expect(holdsReference('failed')).toBe(false);
    for (const status of ['requesting', 'pending', 'success'] as const) expect(holdsReference(status)).toBe(true);
  });

  it('answers a successful retry over the failed attempt before it, as the original did', () => {
    const failed = attempt('a', 'failed', 0);
    const retry = attempt('b', 'success', 5);
    expect(answeringAttempt([failed, retry])).toBe(retry);
    expect(answeringAttempt([retry, failed])).toBe(retry);
  });

  it('answers a success even when a failure came after it', () => {
    const success = attempt('a', 'success', 0);
    expect(answeringAttempt([success, attempt('b', 'failed', 9)])).toBe(success);
  });

  it('answers a payment still open over the failures around it', () => {
    const open = attempt('b', 'pending', 3);
    expect(answeringAttempt([attempt('a', 'failed', 0), open, attempt('c', 'failed', 9)])).toBe(open);
  });

  it('otherwise answers the latest failure, by creation and then id', () => {
    const first = attempt('a', 'failed', 0);
    const later = attempt('b', 'failed', 3);
    const same = attempt('c', 'failed', 3);
    expect(answeringAttempt([later, first])).toBe(later);
    expect(answeringAttempt([same, later])).toBe(same);
    expect(answeringAttempt([later, same])).toBe(same);
    expect(answeringAttempt([])).toBeUndefined();
  });
});
