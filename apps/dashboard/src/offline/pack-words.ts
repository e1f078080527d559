// The words of the work pack and of inspections of a plate not on the phone, part of words.ts's `Words`.
export const enPack = {
  age: (count: number, ago: string) =>
    `Work pack on this phone: ${count === 1 ? '1 vehicle' : `${count.toLocaleString('en-GB')} vehicles`} of your assembly, updated ${ago}.`,
  none: 'No work pack on this phone yet: it is fetched when you sign in with a signal.',
  refresh: 'Update the work pack',
  refreshing: 'Updating the work pack…',
  refreshFailed: 'No connection: the work pack was not updated.',
  ago: (minutes: number) =>
    minutes < 1
      ? 'just now'
      : minutes < 60
        ? `${minutes} min ago`
        : minutes < 48 * 60
          ? `${Math.floor(minutes / 60)} h ago`
          : `${Math.floor(minutes / 1440)} days ago`,
  offlineFound: (n: number) =>
    n === 1 ? 'No connection: 1 vehicle found in the work pack' : `No connection: ${n} vehicles found in the work pack`,
  offlineNone: 'No connection, and no vehicle of the work pack has that plate.',
  offlineOnlyPlates: 'Without a signal only plates are searched (in the work pack on this phone).',
  inspectUnknown: (plate: string) => `Record an inspection of ${plate} anyway`,
  unknownTitle: 'Inspect a vehicle not on this phone',
  unknownHelp:
    'The inspection is kept on this phone and matched to the vehicle by its plate when there is a signal, then sent.',
  plate: 'Registration number',
  save: 'Save the inspection',
  keptUnknown: (plate: string) =>
    `Saved on this phone: the inspection of ${plate} is matched to its vehicle and sent when there is a signal.`,
  waitingCount: (n: number) =>
    n === 1 ? '1 inspection waiting for its plate' : `${n} inspections waiting for their plates`,
  unknownCount: (n: number) =>
    n === 1 ? '1 inspection of an unknown plate needs you' : `${n} inspections of unknown plates need you`,
  listTitle: 'Inspections waiting for their plates',
  listEmpty: 'No inspection is waiting for its plate.',
  made: (plate: string, at: string) => `${plate}, made ${at} on this phone`,
  waiting: 'Waiting for a signal to find the vehicle.',
  notFound: (plate: string) =>
    `No vehicle of your assembly has the plate ${plate}. Nothing was sent: correct the plate and match again, or discard it.`,
  alreadyWaiting: (plate: string) =>
    `Another inspection of ${plate} is already waiting to send from this phone: deal with that one first, then match again.`,
  matchAgain: 'Match again',
  discard: 'Discard this inspection',
  discardSure: (plate: string) => `Discard the inspection of ${plate} kept on this phone? It has not been sent.`,
  queueTitle: 'Awaiting inspection, from the work pack on this phone',
  queueEmpty: 'No vehicle of the work pack is awaiting inspection.',
};
