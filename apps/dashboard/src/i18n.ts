import { en, type Words } from './words';

/** The dashboard's language: English for now; another is one more `Words` object here. */
const LANGUAGES: Record<string, Words> = { en };

export const words: Words = LANGUAGES[document.documentElement.lang] ?? en;
