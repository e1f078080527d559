// The words of working without a signal (the outbox, kept checklists), part of words.ts's `Words`.
export const enOffline = {
  waitingCount: (n: number) => (n === 1 ? '1 inspection waiting to send' : `${n} inspections waiting to send`),
  needsYouCount: (n: number) => (n === 1 ? '1 inspection needs you' : `${n} inspections need you`),
  keptOffline:
    'No connection: the inspection is saved on this phone, waiting to send. It is sent when the connection returns.',
  waiting: (at: string) => `Inspection waiting to send (made ${at} on this phone).`,
  conflictTitle: 'The inspection was not sent: the vehicle changed meanwhile',
  conflict:
    'Someone changed this vehicle after you opened it. Nothing was overwritten. Here is what you entered: review it against the vehicle as it is now and record it again, or discard it.',
  refusedTitle: 'The inspection was not accepted',
  passed: (items: string) => `Passed: ${items}`,
  failed: (items: string) => `Failed: ${items}`,
  review: 'Review and record again',
  discard: 'Discard what I entered',
  discardSure: 'Discard the inspection you entered on this phone? It has not been sent.',
  sent: 'The inspection kept on this phone is sent and recorded.',
  sentNotice: (plates: string[]) =>
    plates.length === 1
      ? `Sent from this phone: the inspection of ${plates[0]}.`
      : `Sent from this phone: the inspections of ${plates.join(', ')}.`,
  restored: 'The checklist you had started on this phone is filled in again.',
  signOutSure: (n: number) =>
    `${n === 1 ? '1 inspection of yours is' : `${n} inspections of yours are`} still waiting to send. ${n === 1 ? 'It stays' : 'They stay'} on this phone and ${n === 1 ? 'is' : 'are'} sent the next time you sign in on it (never under someone else's name). Sign out?`,
};
