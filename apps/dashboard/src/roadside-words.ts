// The words of a weak signal and of the roadside's warnings (issue 43): part of `Words` (words.ts) as its
// `roadside` entry.

import type { Translate } from './messages';

export const roadsideWords = (t: Translate) => ({
  sending: t('roadside.sending'),
  slowChange: t('roadside.slowChange'),
  slowRead: t('roadside.slowRead'),
  noAnswerTitle: t('roadside.noAnswerTitle'),
  noAnswer: t('roadside.noAnswer'),
  retry: t('roadside.retry'),
  /** Before saving a failure on an approved vehicle. */
  withdrawWarning: (plate: string) => t('roadside.withdrawWarning', { plate }),
  /** After it was saved. */
  withdrawn: (plate: string, items: string) => t('roadside.withdrawn', { plate, items }),
  /** Kept on the phone: withdrawn when it is sent. */
  withdrawnWhenSent: (plate: string) => t('roadside.withdrawnWhenSent', { plate }),
  documentsEnded: (plate: string, documents: string) => t('roadside.documentsEnded', { plate, documents }),
  and: t('roadside.and'),
  printAnyway: (plate: string, documents: string) => t('roadside.printAnyway', { plate, documents }),
  signInWith: (email: string) => t('roadside.signInWith', { email }),
});
