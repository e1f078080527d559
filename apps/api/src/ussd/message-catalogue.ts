import { IntlMessageFormat } from 'intl-messageformat';
import { EN, type MessageKey } from './messages/en';

/**
 * The catalogues of the USSD and SMS checks, by language code. Only English exists; another language's catalogue
 * (Partial: a missing entry is said in English) is added here and becomes a choice of the USSD language menu.
 */
export const CATALOGUES: Readonly<Record<string, Partial<Record<MessageKey, string>>>> = { en: EN };
export const LANGUAGES = Object.keys(CATALOGUES);
export const FALLBACK_LANGUAGE = 'en';
/** The locale a language's dates and numbers are written in (English as in Ghana: 25 Dec 2027). */
const LOCALES: Readonly<Record<string, string>> = { en: 'en-GB' };

export type MessageValues = Record<string, string | number | Date>;

/** Formats messages in a language (English for a missing language or entry), dates in the service's zone. */
export class MessageCatalogue {
  private readonly compiled = new Map<string, IntlMessageFormat>();

  constructor(private readonly timeZone: string) {}

  format(language: string, key: MessageKey, values: MessageValues = {}): string {
    const lang = CATALOGUES[language]?.[key] !== undefined ? language : FALLBACK_LANGUAGE;
    const id = `${lang}\u0000${key}`;
    let message = this.compiled.get(id);
    if (!message) {
      const source = CATALOGUES[lang][key] ?? EN[key];
      message = new IntlMessageFormat(source, LOCALES[lang] ?? lang, {
        date: { day: { day: 'numeric', month: 'short', year: 'numeric', timeZone: this.timeZone } },
      });
      this.compiled.set(id, message);
    }
    return String(message.format(values));
  }
}
