// The words of working without a signal (the outbox, kept checklists), part of words.ts's `Words`.

import type { Translate } from '../messages';
export const offlineWords = (t: Translate) => ({
  waitingCount: (n: number) => t('offline.waitingCount', { n }),
  needsYouCount: (n: number) => t('offline.needsYouCount', { n }),
  keptOffline: t('offline.keptOffline'),
  waiting: (at: string) => t('offline.waiting', { at }),
  conflictTitle: t('offline.conflictTitle'),
  conflict: t('offline.conflict'),
  refusedTitle: t('offline.refusedTitle'),
  passed: (items: string) => t('offline.passed', { items }),
  failed: (items: string) => t('offline.failed', { items }),
  review: t('offline.review'),
  discard: t('offline.discard'),
  discardSure: t('offline.discardSure'),
  sent: t('offline.sent'),
  sentNotice: (plates: string[]) => t('offline.sentNotice', { count: plates.length, plates: plates.join(', ') }),
  restored: t('offline.restored'),
  signOutSure: (n: number) => t('offline.signOutSure', { n }),
});
