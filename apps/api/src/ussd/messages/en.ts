/**
 * The English catalogue of everything the USSD and SMS checks send, in ICU MessageFormat (what translators' tools
 * open). Another language is a file like this one with the same keys, listed in message-catalogue.ts; a key it lacks
 * is said in English, never shown as a key. Every USSD screen must fit 182 characters and every SMS its budget of
 * parts (test/ussd-sms.e2e.spec.ts and message-catalogue.spec.ts hold both).
 */
export const EN = {
  'language.name': 'English',
  'ussd.menu': 'Transport registry\n1 Check a vehicle\n2 Check a driver\n3 Language\n4 Report a vehicle',
  'ussd.invalid': 'Not a choice here.',
  'ussd.askVehicle': 'Check a vehicle: enter its plate (GR 1234-20) or the 10-digit code on its sticker',
  'ussd.askDriver': 'Check a driver: enter the licence number (DL-1234-2020)',
  'ussd.languages': 'Choose a language',
  'ussd.askReportPlate': 'Report a vehicle: enter its plate (GR 1234-20)',
  'ussd.askReportReason':
    'Why report {plate}?\n1 No sticker\n2 Overloading\n3 Dangerous driving\n4 Overcharging\n5 Other',
  'ussd.reported': 'Thank you. Your report on {plate} goes to the assembly.',
  'ussd.ended': 'Thank you for checking.',
  'ussd.tooMany': 'Too many requests from this number. Try again in an hour.',
  'check.vehicle':
    '{plate} {make} {colour}: {state, select, valid {VALID to {until, date, day}} other {NOT VALID}}. Roadworthy {roadworthy}. Insurance {insurance}. Union {union}.{advice}',
  'check.document':
    '{state, select, none {not recorded} expired {ENDED {date, date, day}} other {to {date, date, day}}}',
  'check.advice':
    '{state, select, valid {} withdrawn { Not approved: do not board.} other { Do not board: the driver must renew.}}',
  'check.noUnion': 'none',
  'check.vehicleNotFound':
    'No vehicle {typed} on the registry. Check the plate or code. A vehicle with no sticker carrying passengers can be reported to the assembly.',
  'check.driver':
    'Licence {licence}: {approved, select, yes {APPROVED driver} other {NOT an approved driver: do not ride}}.',
  'check.driverNotFound': 'No driver with licence {licence} on the registry.',
  'sms.help':
    'Send CHECK and the plate (CHECK GR 1234-20) or sticker code to check a vehicle. STOP ends reminders, START resumes them.',
  'sms.stopped': 'You will get no more reminders on this number. Send START to have them again.',
  'sms.started': 'Reminders to this number are on again. Send STOP to end them.',
  'colour.white': 'white',
  'colour.black': 'black',
  'colour.silver': 'silver',
  'colour.grey': 'grey',
  'colour.red': 'red',
  'colour.maroon': 'maroon',
  'colour.blue': 'blue',
  'colour.navy': 'navy blue',
  'colour.green': 'green',
  'colour.yellow': 'yellow',
  'colour.gold': 'gold',
  'colour.orange': 'orange',
  'colour.brown': 'brown',
  'colour.beige': 'beige',
  'colour.purple': 'purple',
} as const;

export type MessageKey = keyof typeof EN;
