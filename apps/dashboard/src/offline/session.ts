import type { Session } from '../api';
import { words as w } from '../i18n';
import { dropCopy, forgetEverything, keepCopy, outbox } from './store';

// The session's part in working offline: the shell's service worker, the session kept to open the dashboard offline,
// and signing out, which deletes everything kept on the phone.

/** Installs the service worker that keeps the app shell (sw.js beside index.html, scope: the dashboard's folder). */
export function keepShell(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('sw.js', { updateViaCache: 'none' }).catch(() => undefined);
}

export const rememberSession = (session: Session) =>
  void keepCopy('session', session.person._id, session).catch(() => undefined);

/** A session the service ended is not reopened offline (the person's drafts and outbox stay for their next sign-in). */
export const forgetSession = () => void dropCopy('session').catch(() => undefined);

/**
 * Before signing out: asks the person to confirm when inspections are still waiting to be sent (signing out deletes
 * them), then deletes everything kept on this phone. False when they chose to stay signed in.
 */
export async function forgetOnSignOut(session: Session): Promise<boolean> {
  const waiting = (await outbox(session.person._id).catch(() => [])).length;
  if (waiting > 0 && !confirm(w.offline.signOutSure(waiting))) return false;
  await forgetEverything().catch(() => undefined);
  return true;
}
