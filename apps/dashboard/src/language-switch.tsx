import { isLanguage, type Language } from '@transport/domain';
import { api, type Session } from './api';
import { DASHBOARD_LANGUAGES, language, setLanguage, words as w } from './i18n';

/**
 * The language switch, on every page (the sign-in page too): each language named in itself. The choice is kept on
 * this phone at once; signed in, it is stored with the person too (PUT /auth/language), so their next sign-in on any
 * phone speaks it. Without a signal it stays on this phone only.
 */
export function LanguageSwitch({
  session,
  changed,
}: {
  session?: Session | null;
  changed: (language: Language, session?: Session) => void;
}) {
  return (
    <label class="language">
      <span>{w.language.label}</span>
      <select
        value={language}
        onChange={async (event) => {
          const next = (event.target as HTMLSelectElement).value;
          if (!isLanguage(next)) return;
          await setLanguage(next);
          changed(next);
          if (!session) return;
          const { data } = await api
            .PUT('/auth/language', { body: { language: next } })
            .catch(() => ({ data: undefined }));
          if (data) changed(next, data);
        }}
      >
        {DASHBOARD_LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
