// The words of the certificate scan screen (screens/scan.tsx) and of the vehicle's print link, in English: part of
// `Words` (words.ts) as its `scan` entry, kept in a file of their own beside it.

export const enScan = {
  nav: 'Check a certificate',
  print: 'Print certificate',
  printA4: 'Print on an A4 page',
  printing: 'Printing the certificate…',
  printBlocked: 'The certificate could not be opened: allow pop-ups for this dashboard, then print again.',
  title: 'Check a vehicle certificate',
  intro:
    "Scan the QR code on a vehicle's certificate. Its signature is checked on this device, then its current state is asked for when there is a signal.",
  startCamera: 'Scan with the camera',
  stopCamera: 'Stop the camera',
  aim: 'Point the camera at the QR code.',
  noCamera: "No camera could be opened here. Paste the certificate's link instead.",
  paste: 'Link or code from the certificate',
  check: 'Check',
  again: 'Check another',
  states: {
    valid: 'Valid',
    expired: 'Expired',
    withdrawn: 'Withdrawn',
    not_genuine: 'Not genuine',
    genuine: 'Genuine signature',
    cannot_check: 'Cannot check yet',
  } as Record<string, string>,
  explain: {
    valid: 'The vehicle is approved and its documents are current. Check that its plate matches.',
    expired: (documents: string) => `The vehicle is approved, but these have expired: ${documents}.`,
    withdrawn: 'The approval this certificate names has ended. Do not rely on it.',
    not_genuine: 'This code was not issued by the transport authority, or it was altered. Do not rely on it.',
    cannot_check:
      'Without a signal this cannot be checked here yet. Check it again when there is a signal: until then it is neither confirmed nor shown to be forged.',
    offline:
      'The signature is genuine. Without a signal the current state is unknown: the certificate may have been withdrawn or have expired since it was printed.',
  },
  reasons: {
    malformed: 'It is not a certificate code.',
    unknown_key: 'It was signed with a key this service does not know (or no longer uses).',
    no_keys:
      'This phone has not received the keys to check signatures yet (they come when the dashboard opens with a signal).',
    key_not_kept:
      'It was signed with a key this phone does not have: it may be newer than the keys the phone last received.',
    bad_signature: 'Its signature does not match: it was altered or forged.',
    approval_withdrawn: 'The approval was withdrawn.',
    approved_again: 'The vehicle was approved again and has a newer certificate.',
    vehicle_removed: 'The vehicle is no longer on record.',
  } as Record<string, string>,
  documents: {
    roadworthy: 'roadworthy certificate',
    insurance: 'insurance',
    driverLicense: "driver's licence",
  } as Record<string, string>,
  plate: 'Plate',
  make: 'Make and model',
  color: 'Colour',
  union: 'Transport union',
  station: 'Station',
  driver: 'Driver',
  noDriver: 'No driver linked',
  rating: (r: number | null) => (r === null ? 'not rated yet' : `rated ${r} of 5`),
  until: (document: string, date: string, expired: boolean) =>
    expired ? `${document}: expired ${date}` : `${document}: until ${date}`,
  printed: (date: string) => `Printed ${date}`,
  signedOnDevice: 'Signature checked on this device.',
  keysFrom: (date: string) => `Keys last fetched ${date}.`,
  fromServer: (date: string) => `Current state from the service at ${date}.`,
  noSignal: 'No signal: the current state could not be fetched.',
};
