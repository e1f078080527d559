// The words the lists share (screens/list-parts.tsx: their orders and expiry windows) and those of the drivers list
// (screens/drivers.tsx), in English: part of `Words` (words.ts) as its `lists` entry, kept in a file of their own.

export const enLists = {
  order: 'Order',
  orders: {
    '-createdAt': 'Newest first',
    createdAt: 'Oldest first',
    registrationNumber: 'Plate, A to Z',
    '-registrationNumber': 'Plate, Z to A',
    name: 'Name, A to Z',
    '-name': 'Name, Z to A',
  } as Record<string, string>,
  sortBy: (column: string) => `Sort the whole list by ${column.toLowerCase()}`,
  any: 'Any',
  within: (days: number) => `Within ${days} days, or ended`,
  ended: (date: string) => `${date} (ended)`,
  drivers: {
    nav: 'Drivers',
    title: 'Drivers',
    filters: 'Filters',
    state: 'State',
    licenceEnding: 'Licence ending',
    apply: 'Show',
    clear: 'Clear the filters',
    empty: 'No driver matches these filters.',
    count: (n: number) => (n === 1 ? '1 driver' : `${n} drivers`),
    name: 'Name',
    phone: 'Phone',
    licenceEnds: 'Licence ends',
    registered: 'Registered',
  },
};
