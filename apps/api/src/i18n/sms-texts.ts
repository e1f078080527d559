import { daysUntil, type InspectionItem, type ReminderDocument } from '@transport/domain';
import type { Catalogue } from './catalogue';
import { smsCatalogue, type SmsKey } from './catalogues';

/**
 * The texts sent to drivers and owners, in their language (apps/api/src/i18n/sms/<language>.json; English for a
 * language or an entry the catalogue lacks). Their parts per language are held by test/sms-parts.spec.ts.
 */
const byZone = new Map<string, Catalogue<SmsKey>>();
function catalogue(timeZone: string): Catalogue<SmsKey> {
  let found = byZone.get(timeZone);
  if (!found) byZone.set(timeZone, (found = smsCatalogue(timeZone)));
  return found;
}

/** The activation key SMS. */
export function activationText(key: string, hours: number, language = 'en'): string {
  return catalogue('UTC').format(language, 'activation.key', { key, hours });
}

/** A reminder that a document lapses: the driver's licence (no subject) or a vehicle's document (its plate). */
export function reminderText(
  reminder: { document: ReminderDocument; expiry: Date; subject?: string },
  at: Date,
  timeZone: string,
  language = 'en',
): string {
  const c = catalogue(timeZone);
  return c.format(language, 'reminder.text', {
    subject: reminder.subject ? 'vehicle' : 'none',
    plate: reminder.subject ?? '',
    document: c.format(language, 'reminder.document', { document: reminder.document }),
    days: Math.max(0, daysUntil(reminder.expiry, at, timeZone)),
    expiry: reminder.expiry,
  });
}

/** The notice to an owner that a failed inspection withdrew the vehicle's approval and sticker. */
export function withdrawalText(
  vehicle: { registrationNumber?: string; id: string },
  failedItems: readonly string[],
  at: Date,
  timeZone: string,
  language = 'en',
): string {
  const c = catalogue(timeZone);
  const items = failedItems
    .map((item) => {
      const key = ITEM_KEYS[item as InspectionItem] as SmsKey | undefined;
      return key ? c.format(language, key) : item;
    })
    .join(c.format(language, 'withdrawal.separator'));
  return c.format(language, 'withdrawal.notice', { plate: vehicle.registrationNumber ?? vehicle.id, at, items });
}

/** The inspection's items the catalogue names (every item has its words, or this does not compile). */
const ITEM_KEYS: Record<InspectionItem, SmsKey> = {
  spareTire: 'item.spareTire',
  headlights: 'item.headlights',
  tailLights: 'item.tailLights',
  turnSignals: 'item.turnSignals',
  brakeLights: 'item.brakeLights',
  fireExtinguisher: 'item.fireExtinguisher',
  emergencySignals: 'item.emergencySignals',
  seatBelts: 'item.seatBelts',
  brakes: 'item.brakes',
  licensePlate: 'item.licensePlate',
};

/**
 * The SMS with a set-password link: an invitation (`within` hours) or a reset (`within` minutes), naming the e-mail
 * to sign in with, in the staff member's language. Within its budget with an assembly's name of up to 60 characters
 * and an e-mail of 40 (the link carries the e-mail too; test/sms-parts.spec.ts): staff links are few, and the address
 * is what people lacked.
 */
export function passwordLinkText(
  purpose: 'invitation' | 'reset',
  assembly: string,
  email: string,
  within: number,
  url: string,
  language = 'en',
): string {
  return purpose === 'invitation'
    ? catalogue('UTC').format(language, 'password.invitation', { assembly, email, hours: within, url })
    : catalogue('UTC').format(language, 'password.reset', { assembly, email, minutes: within, url });
}

/** A roadside notice to a vehicle's owner or driver: the offences, the amount, the day to pay by and the page. */
export function noticeText(
  notice: { assembly: string; plate: string; offences: string; amount: string; due: Date; link: string },
  timeZone: string,
  language = 'en',
): string {
  return catalogue(timeZone).format(language, 'notice.issued', notice);
}

/** A supervisor decided the owner's contest of a notice (upheld, reduced or cancelled); the page says why. */
export function noticeDecidedText(
  notice: { assembly: string; plate: string; outcome: string; amount: string; due: Date; link: string },
  timeZone: string,
  language = 'en',
): string {
  return catalogue(timeZone).format(language, 'notice.decided', notice);
}

/** A supervisor cancelled a notice; the page says why. */
export function noticeCancelledText(
  notice: { assembly: string; plate: string; link: string },
  timeZone: string,
  language = 'en',
): string {
  return catalogue(timeZone).format(language, 'notice.cancelled', notice);
}

/** The receipt of a notice's mobile-money payment, to the number that paid: what was taken and what is still owed. */
export function receiptText(
  receipt: {
    assembly: string;
    plate: string;
    notice: string;
    amount: string;
    remaining: string;
    paid: boolean;
    at: Date;
    reference: string;
  },
  timeZone: string,
  language = 'en',
): string {
  const { paid, ...values } = receipt;
  return catalogue(timeZone).format(language, 'notice.receipt', { ...values, state: paid ? 'paid' : 'part' });
}
