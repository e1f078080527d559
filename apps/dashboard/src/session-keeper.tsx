import { useEffect, useRef, useState } from 'preact/hooks';
import { api, lastRequest, type Session } from './api';
import { words as w } from './i18n';

const MINUTE = 60_000;
/** What counts as the person working on the page, though it sends nothing (ticking a checklist, typing). */
const ACTIVITY = ['pointerdown', 'keydown', 'input'] as const;

/**
 * Keeps a signed-in person's session while they work, and warns before it ends.
 *
 * The API ends a session SESSION_IDLE_MINUTES after the last request it recorded; it records a request at most once per
 * "touch step" (a minute, or a quarter of the idle time if shorter), so the server's last-seen time is never older than
 * the page's last request minus one step. From that the page knows the earliest the session can end. While the person
 * works (clicks, types) and nothing was sent for a step, it asks the API who is signed in, which records the activity.
 * A warning with a "Stay signed in" button shows a minute before the earliest end (or half the idle time, if that is
 * shorter); once the latest possible end has passed, the page asks once more, and the API's 401 ends the session.
 */
export function SessionKeeper({ session }: { session: Session }) {
  const idleMs = session.idleSeconds * 1000;
  const touchMs = Math.min(MINUTE, idleMs / 4);
  const warnMs = Math.min(MINUTE, idleMs / 2);
  const endsAt = Date.parse(session.endsAt);
  const [left, setLeft] = useState<number | undefined>();
  const stay = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const keepAlive = () => {
      if (Date.now() - lastRequest() >= touchMs) void api.GET('/auth/session').catch(() => undefined); // offline: nothing to extend
    };
    for (const event of ACTIVITY) addEventListener(event, keepAlive, { capture: true, passive: true });
    const tick = setInterval(() => {
      const now = Date.now();
      const latestEnd = Math.min(lastRequest() + idleMs, endsAt);
      // Past the latest end the session is over on the server: this request's 401 says so (and cannot extend it).
      if (now > latestEnd + 1000) void api.GET('/auth/session').catch(() => undefined); // offline: nothing to extend
      const remaining = Math.min(lastRequest() + idleMs - touchMs, endsAt) - now;
      setLeft(remaining <= warnMs ? Math.max(0, Math.ceil(remaining / 1000)) : undefined);
    }, 1000);
    return () => {
      clearInterval(tick);
      for (const event of ACTIVITY) removeEventListener(event, keepAlive, { capture: true });
    };
  }, [idleMs, touchMs, warnMs, endsAt]);

  // The warning takes the focus (an alert dialog), and gives it back to where the person was when it goes.
  const warning = left !== undefined;
  useEffect(() => {
    if (!warning) return;
    const before = document.activeElement as HTMLElement | null;
    stay.current?.focus();
    return () => before?.focus();
  }, [warning]);

  if (!warning) return null;
  return (
    <div
      class="session-warning"
      role="alertdialog"
      aria-labelledby="session-warning-title"
      aria-describedby="session-warning-text"
    >
      <h2 id="session-warning-title">{w.signIn.ending}</h2>
      <p id="session-warning-text">{w.signIn.endingHelp(left)}</p>
      <button
        type="button"
        class="primary"
        ref={stay}
        onClick={() => {
          void api.GET('/auth/session').catch(() => undefined); // offline: nothing to extend
          setLeft(undefined);
        }}
      >
        {w.signIn.stay}
      </button>
    </div>
  );
}
