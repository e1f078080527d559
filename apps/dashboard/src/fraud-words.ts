// The words of the assembly admin's review of signs of fraud (issue 46, item 6): part of `Words` (words.ts) as its
// `fraud` entry. Each flag's sentence is made here from the numbers the API sends (`details`), in the reader's language.

import type { Translate } from './messages';

/** A flag's numbers, by kind (the API's FraudFlagResponse `details`). */
export type FraudDetails = Record<string, unknown>;

export const fraudWords = (t: Translate) => {
  const n = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0));
  const kinds: Record<string, string> = {
    'quick-succession': t('fraud.kind.quickSuccession'),
    'far-from-station': t('fraud.kind.farFromStation'),
    'photo-reused': t('fraud.kind.photoReused'),
    'pass-rate-outlier': t('fraud.kind.passRateOutlier'),
    'sticker-without-photos': t('fraud.kind.stickerWithoutPhotos'),
  };
  return {
    nav: t('fraud.nav'),
    title: t('fraud.title'),
    intro: t('fraud.intro'),
    show: t('fraud.show'),
    status: { open: t('fraud.status.open'), cleared: t('fraud.status.cleared'), all: t('fraud.status.all') },
    kind: t('fraud.kind'),
    allKinds: t('fraud.kind.all'),
    kinds,
    /** The plain sentence of a flag, from its kind and numbers. */
    explain: (kind: string, d: FraudDetails): string => {
      switch (kind) {
        case 'quick-succession':
          return t('fraud.explain.quickSuccession', { minutes: n(d.minutes), min: n(d.minMinutes) });
        case 'far-from-station':
          return t('fraud.explain.farFromStation', { km: n(d.km), max: n(d.maxKm) });
        case 'photo-reused':
          return t('fraud.explain.photoReused');
        case 'pass-rate-outlier':
          return t(d.direction === 'low' ? 'fraud.explain.passRateLow' : 'fraud.explain.passRateHigh', {
            passed: n(d.passed),
            total: n(d.total),
            othersPassed: n(d.othersPassed),
            othersTotal: n(d.othersTotal),
          });
        default:
          return t('fraud.explain.stickerWithoutPhotos');
      }
    },
    vehicle: (plate: string) => t('fraud.vehicle', { plate }),
    inspector: (name: string) => t('fraud.inspector', { name }),
    raised: (when: string) => t('fraud.raised', { when }),
    cleared: (when: string, name: string, reason: string) => t('fraud.cleared', { when, name, reason }),
    reason: t('fraud.reason'),
    clear: t('fraud.clear'),
    clearWhat: (what: string) => t('fraud.clearWhat', { what }),
    clearedNow: t('fraud.clearedNow'),
    none: t('fraud.none'),
  };
};
