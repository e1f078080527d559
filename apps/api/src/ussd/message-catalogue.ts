import { DEFAULT_LANGUAGE } from '@transport/domain';
import { Catalogue } from '../i18n/catalogue';
import { USSD_FILES, type UssdKey } from '../i18n/catalogues';

/**
 * The catalogue of the USSD and SMS checks (apps/api/src/i18n/ussd/<language>.json, docs/languages.md): every screen
 * and answer, in each language; English for an entry a language lacks.
 */
export class MessageCatalogue extends Catalogue<UssdKey> {
  constructor(timeZone: string) {
    super(USSD_FILES, timeZone);
  }
}

export type MessageKey = UssdKey;
export type { MessageValues } from '../i18n/catalogue';
/** The languages of the USSD language menu, in its order (English first). */
export const LANGUAGES = new MessageCatalogue('UTC').languages;
export const FALLBACK_LANGUAGE = DEFAULT_LANGUAGE;
