import { DomainError } from './domain-error';
import { isLanguage, languageFromAcceptLanguage, LANGUAGE_CODES, parseLanguage } from './language';

describe('Language', () => {
  it('speaks English and five Ghanaian languages', () => {
    expect(LANGUAGE_CODES).toEqual(['en', 'tw', 'gaa', 'ee', 'ha', 'dag']);
    expect(isLanguage('gaa')).toBe(true);
    expect(isLanguage('fr')).toBe(false);
    expect(isLanguage(3)).toBe(false);
  });

  it('parses a language in any letter case and refuses one not spoken here', () => {
    expect(parseLanguage(' EE ')).toBe('ee');
    expect(() => parseLanguage('fr')).toThrow(DomainError);
    expect(() => parseLanguage('fr')).toThrow(/language must be one of en, tw, gaa, ee, ha, dag/);
    expect(() => parseLanguage(null)).toThrow(expect.objectContaining({ code: 'INVALID_LANGUAGE', field: 'language' }));
    expect(() => parseLanguage(3)).toThrow(DomainError);
  });

  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['fr-FR, de;q=0.8', 'en'],
    ['ak-GH', 'tw'],
    ['twi', 'tw'],
    ['en-US,ha;q=0.9', 'en'],
    ['en;q=0.5, ha;q=0.9', 'ha'],
    ['dag, ee', 'dag'],
    ['ee;q=0, gaa;q=0.3', 'gaa'],
    ['ha;q=abc, ee', 'ee'],
  ])('reads Accept-Language %p as %p', (header, language) => {
    expect(languageFromAcceptLanguage(header)).toBe(language);
  });
});
