import type { Language } from '@transport/domain';
import { Catalogue, type CatalogueFile } from './catalogue';
import checkPageDag from './check-page/dag.json';
import checkPageEe from './check-page/ee.json';
import checkPageEn from './check-page/en.json';
import checkPageGaa from './check-page/gaa.json';
import checkPageHa from './check-page/ha.json';
import checkPageTw from './check-page/tw.json';
import smsDag from './sms/dag.json';
import smsEe from './sms/ee.json';
import smsEn from './sms/en.json';
import smsGaa from './sms/gaa.json';
import smsHa from './sms/ha.json';
import smsTw from './sms/tw.json';
import ussdDag from './ussd/dag.json';
import ussdEe from './ussd/ee.json';
import ussdEn from './ussd/en.json';
import ussdGaa from './ussd/gaa.json';
import ussdHa from './ussd/ha.json';
import ussdTw from './ussd/tw.json';

/**
 * Every catalogue of what the API sends or shows the public (docs/languages.md), one JSON file per language:
 * - `ussd`: the USSD screens and the SMS check's answers;
 * - `sms`: the texts to drivers and owners (activation key, reminders, withdrawal notices);
 * - `check-page`: the public page a certificate's QR code opens.
 * English is the source; the others are machine drafts until a native speaker reviews them.
 */
const files = <T extends CatalogueFile>(
  en: T,
  others: Record<Exclude<Language, 'en'>, CatalogueFile>,
): Record<Language, CatalogueFile> => ({ en, ...others });

export const USSD_FILES = files(ussdEn, { tw: ussdTw, gaa: ussdGaa, ee: ussdEe, ha: ussdHa, dag: ussdDag });
export const SMS_FILES = files(smsEn, { tw: smsTw, gaa: smsGaa, ee: smsEe, ha: smsHa, dag: smsDag });
export const CHECK_PAGE_FILES = files(checkPageEn, {
  tw: checkPageTw,
  gaa: checkPageGaa,
  ee: checkPageEe,
  ha: checkPageHa,
  dag: checkPageDag,
});

export type UssdKey = keyof typeof ussdEn;
export type SmsKey = keyof typeof smsEn;
export type CheckPageKey = keyof typeof checkPageEn;

/** The catalogues by name, as the completeness test and the docs' table read them. */
export const CATALOGUE_FILES = { ussd: USSD_FILES, sms: SMS_FILES, 'check-page': CHECK_PAGE_FILES } as const;

export const ussdCatalogue = (timeZone: string) => new Catalogue<UssdKey>(USSD_FILES, timeZone);
export const smsCatalogue = (timeZone: string) => new Catalogue<SmsKey>(SMS_FILES, timeZone);
export const checkPageCatalogue = (timeZone: string) => new Catalogue<CheckPageKey>(CHECK_PAGE_FILES, timeZone);
