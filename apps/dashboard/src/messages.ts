// The dashboard's words are message catalogues, one JSON file per language in messages/ (the WebExtension/Chrome
// JSON shape, each entry with its review state: docs/dashboard.md#languages), formatted with ICU MessageFormat by
// intl-messageformat: plurals, numbers and dates follow the language's formatting locale.
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { LANGUAGES, type Language } from '@transport/domain';
import english from './messages/en.json';

/** A key of the English catalogue: every entry of every language is one of these. */
export type MessageKey = keyof typeof english;
export type ReviewState = 'source' | 'machine-draft' | 'reviewed';
/** An entry as the build ships it: `message` is ICU MessageFormat text, or its parsed form (build.mjs parses it). */
export interface Entry {
  message: string | ReturnType<IntlMessageFormat['getAst']>;
  description?: string;
  state?: ReviewState;
}
export type Catalogue = Partial<Record<string, Entry>>;
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
  const formats = new Map<string, IntlMessageFormat>();
  const fallback = english as Catalogue;
  return (key, values) => {
    let format = formats.get(key);
    if (!format) {
      const own = catalogue[key];
      // Every key is English's (MessageKey), so the fallback always has it.
      const entry = own ?? (fallback[key] as Entry);
      format = new IntlMessageFormat(entry.message as string, own ? locale : 'en-GH');
      formats.set(key, format);
    }
    return String(format.format(values));
  };
}

export const englishCatalogue = english as Catalogue;
