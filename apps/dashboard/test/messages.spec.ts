import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { LANGUAGE_CODES } from '@transport/domain';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { en, makeWords } from '../src/words';
import { translator, type Catalogue } from '../src/messages';

// The dashboard's message catalogues (src/messages/<language>.json): every language has every English entry and no
// other, each with a review state, in valid ICU MessageFormat, with the same placeholders as English.

const DIR = join(__dirname, '..', 'src', 'messages');
const read = (file: string) =>
  JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Record<string, Record<string, unknown>>;
const english = read('en.json');
const catalogues = readdirSync(DIR)
  .filter((f) => f.endsWith('.json') && f !== 'en.json')
  .map((f) => ({ language: f.replace(/\.json$/, ''), entries: read(f) }));

/** The placeholders a message uses, with their kind (a plural's `#` is not one), sorted. */
function placeholders(elements: MessageFormatElement[], into = new Set<string>()): string[] {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(`${element.value}:${TYPE[element.type]}`);
    if ('options' in element) for (const option of Object.values(element.options)) placeholders(option.value, into);
    if (element.type === TYPE.tag) placeholders(element.children, into);
  }
  return [...into].sort();
}

describe("the dashboard's message catalogues", () => {
  it('are one per language the service speaks, English the source', () => {
    for (const { language } of catalogues) expect(LANGUAGE_CODES).toContain(language);
    for (const entry of Object.values(english)) expect(entry.state).toBe('source');
  });

  it('give every English entry a message, a description and a valid ICU message', () => {
    for (const [key, entry] of Object.entries(english)) {
      expect([key, typeof entry.message, typeof entry.description]).toEqual([key, 'string', 'string']);
      expect(() => parse(entry.message as string)).not.toThrow();
    }
  });

  describe.each(catalogues.map((c) => [c.language, c.entries] as const))('%s', (_language, entries) => {
    it('has every English key and no other', () => {
      expect(Object.keys(entries).sort()).toEqual(Object.keys(english).sort());
    });

    it('marks each entry machine-draft or reviewed (only English is the source)', () => {
      for (const [key, entry] of Object.entries(entries))
        expect([key, entry.state]).toEqual([key, expect.stringMatching(/^(machine-draft|reviewed)$/)]);
    });

    it("writes each message in valid ICU MessageFormat with English's placeholders", () => {
      for (const [key, entry] of Object.entries(entries)) {
        expect([key, typeof entry.message]).toEqual([key, 'string']);
        let ast: MessageFormatElement[] = [];
        expect(() => (ast = parse(entry.message as string))).not.toThrow();
        expect([key, placeholders(ast)]).toEqual([key, placeholders(parse(english[key].message as string))]);
      }
    });

    it('formats every word of the dashboard (no function throws, none answers its key)', () => {
      const words = makeWords(translator(entries as unknown as Catalogue, 'en-GH'), 'en-GH');
      expect(words.signIn.endingHelp(1)).not.toBe(en.signIn.endingHelp(1));
      expect(words.pack.ago(3000)).not.toContain('pack.ago');
    });
  });

  it('falls back to English for an entry a catalogue lacks, never to the key', () => {
    const words = makeWords(translator({}, 'en-GH'), 'en-GH');
    expect(words.signIn.title).toBe('Sign in');
    expect(words.compliance.days(1)).toBe('1 day');
  });

  it('has a catalogue for every language the service speaks, and the switch offers each', () => {
    const missing = LANGUAGE_CODES.filter((code) => !existsSync(join(DIR, `${code}.json`)));
    expect(missing).toEqual([]);
    const i18n = readFileSync(join(__dirname, '..', 'src', 'i18n.ts'), 'utf8');
    for (const code of LANGUAGE_CODES.filter((c) => c !== 'en'))
      expect(i18n).toContain(`${code}: () => import('./messages/${code}.json')`);
  });
});
