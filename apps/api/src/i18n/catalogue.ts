import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_CODES, LANGUAGES, type Language } from '@transport/domain';

/**
 * A message catalogue as translators' tools open it (docs/languages.md): one JSON file per language, in the
 * WebExtension (Chrome i18n) JSON shape with a review state per entry. `message` is ICU MessageFormat, `description`
 * tells the translator where the text appears and its length limit, `state` says who wrote it: `source` (English),
 * `machine-draft` (drafted without a native speaker's review) or `reviewed` (a native speaker read and approved it).
 */
export const ENTRY_STATES = ['source', 'machine-draft', 'reviewed'] as const;
export type EntryState = (typeof ENTRY_STATES)[number];

/** An entry as read from its file (test/catalogues.spec.ts holds that every state is one of ENTRY_STATES). */
export interface CatalogueEntry {
  message: string;
  description: string;
  state: EntryState | (string & {});
}
export type CatalogueFile = Record<string, CatalogueEntry>;

export type MessageValues = Record<string, string | number | Date>;

/**
 * The locale a language's dates, numbers and plurals are written in: the domain's formatting locale where Node's ICU
 * data knows it for all three (dates, numbers, plural rules), English as written in Ghana (en-GH) where it does not
 * (Dagbani is in none; Ga has dates but no plural rules in ICU 78).
 */
export function formattingLocale(language: string): string {
  const locale = LANGUAGES.find((l) => l.code === language)?.locale ?? 'en-GH';
  const known =
    Intl.DateTimeFormat.supportedLocalesOf([locale]).length === 1 &&
    Intl.NumberFormat.supportedLocalesOf([locale]).length === 1 &&
    Intl.PluralRules.supportedLocalesOf([locale]).length === 1;
  return known ? locale : 'en-GH';
}

/**
 * Formats the messages of one catalogue in a language: English for a language or an entry the catalogue lacks (never
 * the key), dates in the service's zone (`{d, date, day}`: 25 Dec 2027 in English), money with `{n, number, cedi}`.
 */
export class Catalogue<Key extends string> {
  private readonly compiled = new Map<string, IntlMessageFormat>();

  constructor(
    readonly files: Readonly<Record<Language, CatalogueFile>>,
    private readonly timeZone: string,
  ) {}

  /** The languages that have this catalogue, English first (the USSD language menu lists them in this order). */
  get languages(): Language[] {
    return LANGUAGE_CODES.filter((code) => this.files[code] !== undefined);
  }

  /** The source text of a key (English). */
  source(key: Key): string {
    return this.files[DEFAULT_LANGUAGE][key].message;
  }

  private message(language: string, key: Key): IntlMessageFormat {
    const lang: Language =
      isLanguage(language) && this.files[language]?.[key] !== undefined ? language : DEFAULT_LANGUAGE;
    const id = `${lang}\u0000${key}`;
    let message = this.compiled.get(id);
    if (!message) {
      message = new IntlMessageFormat(
        this.files[lang][key].message,
        formattingLocale(lang),
        {
          date: {
            day: { day: 'numeric', month: 'short', year: 'numeric', timeZone: this.timeZone },
            moment: { dateStyle: 'medium', timeStyle: 'short', timeZone: this.timeZone },
          },
          number: { cedi: { style: 'currency', currency: 'GHS' } },
        },
        // A < in a translation is text, not a tag.
        { ignoreTag: true },
      );
      this.compiled.set(id, message);
    }
    return message;
  }

  format(language: string, key: Key, values: MessageValues = {}): string {
    return String(this.message(language, key).format(values));
  }

  /**
   * The message as HTML: its text and `values` escaped, `markup` values kept as they are (HTML the page made, such
   * as the plate in bold). Translators write plain text; the page decides the markup.
   */
  formatHtml(language: string, key: Key, values: MessageValues = {}, markup: Record<string, string> = {}): string {
    const rich = Object.fromEntries(Object.entries(markup).map(([name, html]) => [name, { html }]));
    const parts = this.message(language, key).format<{ html: string }>({ ...values, ...rich });
    return (Array.isArray(parts) ? parts : [parts])
      .map((part) =>
        typeof part === 'object' && part !== null && 'html' in part ? part.html : escapeHtml(String(part)),
      )
      .join('');
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text for HTML. */
export const escapeHtml = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
