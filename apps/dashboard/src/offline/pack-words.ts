// The words of the work pack and of inspections of a plate not on the phone, part of words.ts's `Words`.

import type { Translate } from '../messages';
export const packWords = (t: Translate) => ({
  age: (count: number, ago: string) => t('pack.age', { count, ago }),
  none: t('pack.none'),
  refresh: t('pack.refresh'),
  refreshing: t('pack.refreshing'),
  refreshFailed: t('pack.refreshFailed'),
  ago: (minutes: number) =>
    minutes < 1
      ? t('pack.ago', { unit: 'now', n: 0 })
      : minutes < 60
        ? t('pack.ago', { unit: 'minutes', n: minutes })
        : minutes < 48 * 60
          ? t('pack.ago', { unit: 'hours', n: Math.floor(minutes / 60) })
          : t('pack.ago', { unit: 'days', n: Math.floor(minutes / 1440) }),
  offlineFound: (n: number) => t('pack.offlineFound', { n }),
  offlineNone: t('pack.offlineNone'),
  offlineOnlyPlates: t('pack.offlineOnlyPlates'),
  inspectUnknown: (plate: string) => t('pack.inspectUnknown', { plate }),
  unknownTitle: t('pack.unknownTitle'),
  unknownHelp: t('pack.unknownHelp'),
  plate: t('pack.plate'),
  save: t('pack.save'),
  keptUnknown: (plate: string) => t('pack.keptUnknown', { plate }),
  waitingCount: (n: number) => t('pack.waitingCount', { n }),
  unknownCount: (n: number) => t('pack.unknownCount', { n }),
  listTitle: t('pack.listTitle'),
  listEmpty: t('pack.listEmpty'),
  made: (plate: string, at: string) => t('pack.made', { plate, at }),
  waiting: t('pack.waiting'),
  notFound: (plate: string) => t('pack.notFound', { plate }),
  alreadyWaiting: (plate: string) => t('pack.alreadyWaiting', { plate }),
  matchAgain: t('pack.matchAgain'),
  discard: t('pack.discard'),
  discardSure: (plate: string) => t('pack.discardSure', { plate }),
  queueTitle: t('pack.queueTitle'),
  queueEmpty: t('pack.queueEmpty'),
});
