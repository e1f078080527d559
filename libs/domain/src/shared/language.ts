import { DomainError } from './domain-error';

/**
 * The languages the service speaks: English and five Ghanaian languages, by their ISO 639 code. A person's language
 * (drivers, owners, staff) is one of these; every SMS, USSD screen, public page and dashboard word is written in it,
 * with English for an entry a catalogue lacks. `locale` is what dates, numbers and plurals are formatted with: the
 * language itself where the runtime's ICU data knows it, English as written in Ghana where it does not.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', locale: 'en-GH' },
  { code: 'tw', name: 'Twi', locale: 'ak' },
  { code: 'gaa', name: 'Ga', locale: 'gaa' },
  { code: 'ee', name: 'Eʋegbe', locale: 'ee' },
  { code: 'ha', name: 'Hausa', locale: 'ha' },
  { code: 'dag', name: 'Dagbanli', locale: 'dag' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES: readonly Language[] = LANGUAGES.map((l) => l.code);
export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value);
}

/**
 * A language given by a person or a form (any letter case, spaces around), refused (INVALID_LANGUAGE) if not spoken
 * here, null and other non-strings included.
 */
export function parseLanguage(value: unknown): Language {
  // null or a number (a JSON body can send either) is refused as any other value not spoken here.
  const code = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!isLanguage(code)) {
    throw new DomainError(
      'INVALID_LANGUAGE',
      `language must be one of ${LANGUAGE_CODES.join(', ')} (${LANGUAGES.map((l) => l.name).join(', ')})`,
      'language',
    );
  }
  return code;
}

/**
 * The best language for an HTTP `Accept-Language` header: the first range, by weight, that names a language here
 * (`tw`, `ak` and `ak-GH` are Twi; `en-US` is English); English when none does.
 */
export function languageFromAcceptLanguage(header: string | undefined): Language {
  const ranges = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim().toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.tag !== '' && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranges) {
    const primary = tag.split('-')[0];
    const code = primary === 'ak' || primary === 'twi' ? 'tw' : primary;
    if (isLanguage(code)) return code;
  }
  return DEFAULT_LANGUAGE;
}
