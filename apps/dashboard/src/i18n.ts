// The dashboard's language: English is in the entry script; another language's catalogue is a chunk of its own,
// loaded only when chosen (the service worker keeps it with the shell, so a chosen language works offline too).
import { DEFAULT_LANGUAGE, LANGUAGES, isLanguage, languageFromAcceptLanguage, type Language } from '@transport/domain';
import { formattingLocale, translator, type Catalogue } from './messages';
import { en, makeWords, type Words } from './words';

// Every language's catalogue but English's is a chunk of its own (machine drafts: docs/dashboard.md#languages).
const CATALOGUES: Partial<Record<Language, () => Promise<{ default: unknown }>>> = {
  tw: () => import('./messages/tw.json'),
  gaa: () => import('./messages/gaa.json'),
  ee: () => import('./messages/ee.json'),
  ha: () => import('./messages/ha.json'),
  dag: () => import('./messages/dag.json'),
};

/** The languages the dashboard can be switched to: English and those with a catalogue. */
export const DASHBOARD_LANGUAGES = LANGUAGES.filter((l) => l.code === 'en' || CATALOGUES[l.code]);

/** Where the language chosen on this phone is kept (before sign-in, and for the next load). */
const KEPT = 'tp_language';

/** The words of the language in use; `setLanguage` replaces them (a live binding: readers see the new ones). */
export let words: Words = en;
export let language: Language = DEFAULT_LANGUAGE;

/**
 * The language to start in: the one chosen on this phone, else the browser's languages (what it sends as
 * Accept-Language), else English.
 */
export function startingLanguage(): Language {
  let kept: string | null = null;
  try {
    kept = localStorage.getItem(KEPT);
  } catch {
    kept = null;
  }
  if (isLanguage(kept) && DASHBOARD_LANGUAGES.some((l) => l.code === kept)) return kept;
  const preferred = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  const browser = languageFromAcceptLanguage(preferred.join(','));
  return DASHBOARD_LANGUAGES.some((l) => l.code === browser) ? browser : DEFAULT_LANGUAGE;
}

/** Loads `next`'s catalogue (a chunk), makes it the words in use, sets `<html lang>` and keeps the choice on this phone. */
export async function setLanguage(next: Language): Promise<void> {
  const load = CATALOGUES[next];
  const locale = formattingLocale(next);
  words = load ? makeWords(translator((await load()).default as Catalogue, locale), locale) : en;
  language = next;
  document.documentElement.lang = next;
  try {
    localStorage.setItem(KEPT, next);
  } catch {
    // A browser that keeps nothing still shows the language for this visit.
  }
}
