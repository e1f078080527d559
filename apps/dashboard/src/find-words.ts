// The words of the registry search (screens/find.tsx) and of the vehicles list (screens/vehicles.tsx):
// part of `Words` (words.ts) as its `find` entry, kept in a file of their own beside it.

import type { Translate } from './messages';

export const findWords = (t: Translate) => ({
  nav: t('find.nav'),
  title: t('find.title'),
  label: t('find.label'),
  help: t('find.help'),
  tooShort: t('find.tooShort'),
  searching: t('find.searching'),
  none: t('find.none'),
  found: (n: number) => t('find.found', { n }),
  more: t('find.more'),
  kinds: { vehicle: t('find.kinds.vehicle'), driver: t('find.kinds.driver'), owner: t('find.kinds.owner') } as Record<
    string,
    string
  >,
  ownerVehicles: (name: string) => t('find.ownerVehicles', { name }),
  states: {
    approved: t('find.states.approved'),
    awaiting_approval: t('find.states.awaiting_approval'),
    inspection_failed: t('find.states.inspection_failed'),
    awaiting_inspection: t('find.states.awaiting_inspection'),
    revoked: t('find.states.revoked'),
    verified: t('find.states.verified'),
    unverified: t('find.states.unverified'),
  } as Record<string, string>,
  vehicles: {
    nav: t('find.vehicles.nav'),
    title: t('find.vehicles.title'),
    ownerTitle: t('find.vehicles.ownerTitle'),
    filters: t('find.vehicles.filters'),
    state: t('find.vehicles.state'),
    station: t('find.vehicles.station'),
    union: t('find.vehicles.union'),
    any: t('find.vehicles.any'),
    apply: t('find.vehicles.apply'),
    clear: t('find.vehicles.clear'),
    empty: t('find.vehicles.empty'),
    count: (n: number) => t('find.vehicles.count', { n }),
    documentsEnding: t('find.vehicles.documentsEnding'),
    documentsEnd: t('find.vehicles.documentsEnd'),
    plate: t('find.vehicles.plate'),
    vehicle: t('find.vehicles.vehicle'),
    registered: t('find.vehicles.registered'),
  },
});
