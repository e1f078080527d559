// The dashboard's words are message catalogues, one JSON file per language in messages/ (the WebExtension/Chrome
// JSON shape, each entry with its review state: docs/dashboard.md#languages), formatted with ICU MessageFormat by
// intl-messageformat: plurals, numbers and dates follow the language's formatting locale.
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { LANGUAGES, type Language } from '@transport/domain';
import english from './messages/en.json';

/** A key of the English catalogue: every entry of every language is one of these. */
export type MessageKey = keyof typeof english;
export type ReviewState = 'source' | 'machine-draft' | 'reviewed';
/**
 * An entry of a catalogue file: `message` is ICU MessageFormat text. The build ships each entry as the page needs
 * it (build.mjs): a plain text as that string, another message as its parsed syntax tree.
 */
export interface Entry {
  message: string;
  description?: string;
  state?: ReviewState;
}
type Shipped = string | MessageFormatElement[];
export type Catalogue = Partial<Record<string, Entry | Shipped>>;
export type Translate = (key: MessageKey, values?: Record<string, PrimitiveType>) => string;

/**
 * The locale dates, numbers and plurals are formatted with: the language's own where this browser's ICU data knows
 * it, English as written in Ghana where it does not.
 */
export function formattingLocale(language: Language): string {
  const wanted = LANGUAGES.find((l) => l.code === language)?.locale ?? 'en-GH';
  const supported = (which: string) => {
    try {
      return (
        Intl.DateTimeFormat.supportedLocalesOf([which]).length > 0 &&
        Intl.PluralRules.supportedLocalesOf([which]).length > 0
      );
    } catch {
      return false;
    }
  };
  return supported(wanted) ? wanted : 'en-GH';
}

/**
 * The words of a catalogue: each key's message, formatted with `values`; English's for an entry the catalogue lacks
 * (never the key). A message is parsed once, when first used.
 */
export function translator(catalogue: Catalogue, locale: string): Translate {
  const formats = new Map<string, (values?: Record<string, PrimitiveType>) => string>();
  const fallback = english as Catalogue;
  return (key, values) => {
    let format = formats.get(key);
    if (!format) {
      const own = catalogue[key];
      // Every key is English's (MessageKey), so the fallback always has it.
      const entry = (own ?? fallback[key]) as Entry | Shipped;
      if (typeof entry === 'string') {
        format = () => entry;
      } else {
        const formatter = new IntlMessageFormat(Array.isArray(entry) ? entry : entry.message, own ? locale : 'en-GH');
        format = (v) => String(formatter.format(v));
      }
      formats.set(key, format);
    }
    return format(values);
  };
}

export const englishCatalogue = english as Catalogue;
