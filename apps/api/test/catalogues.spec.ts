import { IntlMessageFormat } from 'intl-messageformat';
import { LANGUAGE_CODES, LANGUAGES } from '@transport/domain';
import { Catalogue, ENTRY_STATES, formattingLocale, type CatalogueFile } from '../src/i18n/catalogue';
import { CATALOGUE_FILES } from '../src/i18n/catalogues';

/**
 * Issue 48, item 3: every catalogue (apps/api/src/i18n/<catalogue>/<language>.json, docs/languages.md) is complete in
 * every language, each entry has a review state, a description, an ICU message that parses and the same
 * placeholders as English; English is the fallback, never the key; dates, numbers and plurals in the language's
 * locale where Node's ICU knows it.
 */
type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }> };

/** The names of a message's arguments, however deep in selects and plurals (the # of a plural is its argument). */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const e of elements) {
      // 0 literal, 7 pound, 8 tag: no argument of their own.
      if (e.type !== 0 && e.type !== 7 && typeof e.value === 'string') names.add(e.value);
      for (const option of Object.values(e.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, 'en', undefined, { ignoreTag: true }).getAst() as Element[]);
  return [...names].sort();
}

/** What is wrong with one language's file of a catalogue, against English. */
function problems(en: CatalogueFile, file: CatalogueFile | undefined, language: string): string[] {
  if (!file) return [`${language}: no file`];
  const found: string[] = [];
  for (const key of Object.keys(en)) if (!(key in file)) found.push(`${language}: missing ${key}`);
  for (const [key, entry] of Object.entries(file)) {
    if (!(key in en)) {
      found.push(`${language}: extra ${key}`);
      continue;
    }
    if (!(ENTRY_STATES as readonly string[]).includes(entry.state))
      found.push(`${language}: ${key} has state ${JSON.stringify(entry.state)}`);
    if (language === 'en' ? entry.state !== 'source' : entry.state === 'source')
      found.push(`${language}: ${key} is ${entry.state} (only English is the source)`);
    if (typeof entry.description !== 'string' || entry.description.trim() === '')
      found.push(`${language}: ${key} has no description`);
    try {
      const mine = placeholders(entry.message).join(',');
      const source = placeholders(en[key].message).join(',');
      if (mine !== source) found.push(`${language}: ${key} has placeholders [${mine}], English [${source}]`);
    } catch (error) {
      found.push(`${language}: ${key} is not ICU MessageFormat: ${(error as Error).message}`);
    }
  }
  return found;
}

describe('message catalogues', () => {
  for (const [name, files] of Object.entries(CATALOGUE_FILES))
    it(`${name}: every language has exactly English's keys, a state, a description, valid ICU and English's placeholders`, () => {
      expect(LANGUAGE_CODES.flatMap((language) => problems(files.en, files[language], language))).toEqual([]);
    });

  describe('the check itself fails', () => {
    const en: CatalogueFile = {
      a: { message: 'Hello {name}', description: 'd', state: 'source' },
      b: { message: '{n, plural, one {# day} other {# days}}', description: 'd', state: 'source' },
    };
    const draft = (message: string, state = 'machine-draft') => ({ message, description: 'd', state });

    it('on a missing or an extra key', () => {
      expect(problems(en, { a: draft('Akwaaba {name}'), c: draft('x') }, 'tw')).toEqual([
        'tw: missing b',
        'tw: extra c',
      ]);
    });

    it('on an entry without a valid state, or a translation marked as the source', () => {
      expect(
        problems(en, { a: draft('Akwaaba {name}', 'done'), b: draft('{n, plural, other {#}}', 'source') }, 'tw'),
      ).toEqual(['tw: a has state "done"', 'tw: b is source (only English is the source)']);
    });

    it('on an ICU syntax error, and on placeholders other than English', () => {
      const found = problems(en, { a: draft('Akwaaba {name'), b: draft('{days, plural, other {# nna}}') }, 'tw');
      expect(found[0]).toMatch(/^tw: a is not ICU MessageFormat/);
      expect(found[1]).toBe('tw: b has placeholders [days], English [n]');
    });

    it('on a file that is missing', () => {
      expect(problems(en, undefined, 'dag')).toEqual(['dag: no file']);
    });
  });

  describe('formatting', () => {
    const files = {
      ...Object.fromEntries(LANGUAGE_CODES.map((l) => [l, {}])),
      en: {
        greet: { message: 'Hello {name}', description: 'd', state: 'source' },
        due: {
          message: 'in {n, plural, one {# day} other {# days}} on {d, date, day}, {m, number, cedi}',
          description: 'd',
          state: 'source',
        },
      },
      ha: {
        due: {
          message: 'cikin {n, plural, one {kwana #} other {kwanaki #}} a {d, date, day}, {m, number, cedi}',
          description: 'd',
          state: 'machine-draft',
        },
      },
      tw: {
        due: {
          message: '{n, plural, one {da #} other {nna #}} {d, date, day}, {m, number, cedi}',
          description: 'd',
          state: 'machine-draft',
        },
      },
    } as unknown as ConstructorParameters<typeof Catalogue>[0];
    const m = new Catalogue<'greet' | 'due'>(files, 'Africa/Accra');
    const values = { n: 2, d: new Date('2027-12-25T10:00:00Z'), m: 1234.5 };

    it('says a missing entry or an unknown language in English, never as the key', () => {
      expect(m.format('tw', 'greet', { name: 'Ama' })).toBe('Hello Ama');
      expect(m.format('xx', 'greet', { name: 'Ama' })).toBe('Hello Ama');
    });

    it('writes dates, money and plurals in the language where ICU knows it', () => {
      expect(m.format('en', 'due', values)).toBe('in 2 days on 25 Dec 2027, GH₵1,234.50');
      // Twi (ak): the month's Twi name; Hausa (ha): its own order and plural.
      expect(m.format('tw', 'due', values)).toMatch(/^nna 2 Ɔpɛnimma 25, 2027, GH₵/);
      expect(m.format('ha', 'due', values)).toMatch(/^cikin kwanaki 2 a 25 Dis, 2027, GHS/);
    });

    it('falls back to English as written in Ghana for a language ICU does not know', () => {
      // What this Node's ICU knows (the fallback is chosen at run time, so a newer ICU takes the language itself).
      const known = (locale: string) =>
        [Intl.DateTimeFormat, Intl.NumberFormat, Intl.PluralRules].every(
          (service) => (service as typeof Intl.DateTimeFormat).supportedLocalesOf([locale]).length === 1,
        );
      for (const { code, locale } of LANGUAGES)
        expect([code, formattingLocale(code)]).toEqual([code, known(locale) ? locale : 'en-GH']);
      expect(known('dag')).toBe(false);
      expect(formattingLocale('dag')).toBe('en-GH');
      expect(formattingLocale('tw')).toBe('ak');
      expect(formattingLocale('xx')).toBe('en-GH');
    });

    it("escapes the message and its values as HTML, and keeps the page's markup", () => {
      const page = new Catalogue<'greet'>(files as never, 'UTC');
      expect(page.formatHtml('en', 'greet', { name: '<b>&' })).toBe('Hello &lt;b&gt;&amp;');
      expect(page.formatHtml('en', 'greet', {}, { name: '<strong>GR 1</strong>' })).toBe('Hello <strong>GR 1</strong>');
    });
  });
});
