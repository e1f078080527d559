// The words the lists share (screens/list-parts.tsx: their orders and expiry windows) and those of the drivers list
// (screens/drivers.tsx): part of `Words` (words.ts) as its `lists` entry, kept in a file of their own.

import type { Translate } from './messages';

export const listWords = (t: Translate) => ({
  order: t('lists.order'),
  orders: {
    '-createdAt': t('lists.orders.-createdAt'),
    createdAt: t('lists.orders.createdAt'),
    registrationNumber: t('lists.orders.registrationNumber'),
    '-registrationNumber': t('lists.orders.-registrationNumber'),
    name: t('lists.orders.name'),
    '-name': t('lists.orders.-name'),
  } as Record<string, string>,
  sortBy: (column: string) => t('lists.sortBy', { column: column.toLowerCase() }),
  any: t('lists.any'),
  within: (days: number) => t('lists.within', { days }),
  ended: (date: string) => t('lists.ended', { date }),
  drivers: {
    nav: t('lists.drivers.nav'),
    title: t('lists.drivers.title'),
    filters: t('lists.drivers.filters'),
    state: t('lists.drivers.state'),
    licenceEnding: t('lists.drivers.licenceEnding'),
    apply: t('lists.drivers.apply'),
    clear: t('lists.drivers.clear'),
    empty: t('lists.drivers.empty'),
    count: (n: number) => t('lists.drivers.count', { n }),
    name: t('lists.drivers.name'),
    phone: t('lists.drivers.phone'),
    licenceEnds: t('lists.drivers.licenceEnds'),
    registered: t('lists.drivers.registered'),
  },
});
