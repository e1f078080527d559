import { api, type Session } from '../api';
import { words as w } from '../i18n';
import { dropCopy, forgetPerson, keepCopy, outbox } from './store';
import { forgetPack } from './pack';
import { unmatched } from './unmatched';

// The session's part in working offline: the shell's service worker, the session kept to open the dashboard offline,
// and signing out, which deletes what the person kept on the phone but the inspections waiting to be sent.

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
 * Before signing out: tells the person when their inspections are still waiting to be sent (they stay on this phone,
 * sent at their next sign-in here, never under someone else's), and asks to confirm; then deletes the rest of what they
 * kept. Other people's kept inspections are not touched. False when they chose to stay signed in.
 */
export async function forgetOnSignOut(session: Session): Promise<boolean> {
  const waiting =
    (await outbox(session.person._id).catch(() => [])).length +
    (await unmatched(session.person._id).catch(() => [])).length;
  if (waiting > 0 && !confirm(w.offline.signOutSure(waiting))) return false;
  // Their inspections waiting for a plate to match stay too, like those waiting to be sent; the work pack goes.
  await Promise.all([forgetPerson(session.person._id), forgetPack()]).catch(() => undefined);
  return true;
}

/** A sign-out made without a signal, waiting to be sent: the session's CSRF token (the cookie is the browser's). */
const PENDING_SIGN_OUT = 'transport.pending-sign-out';

/** What became of a sign-out: the service ended the session, or only this phone forgot it (sent with a signal). */
export type SignedOut = 'done' | 'waiting';

/**
 * Ends the session on the service; without a signal, keeps the sign-out to send as soon as there is one (the phone has
 * already forgotten the session: forgetOnSignOut). Any answer of the service (204, or 401/403: the session was over)
 * means it is done.
 */
export async function sendSignOut(csrfToken: string): Promise<SignedOut> {
  const answer = await api.POST('/auth/sign-out', { headers: { 'X-CSRF-Token': csrfToken } }).catch(() => undefined);
  if (answer === undefined) {
    localStorage.setItem(PENDING_SIGN_OUT, csrfToken);
    return 'waiting';
  }
  localStorage.removeItem(PENDING_SIGN_OUT);
  return 'done';
}

/**
 * A sign-out made without a signal, sent now, before anything else (the session is asked for only after it): 'done'
 * when the service was told now, 'waiting' when there is still no signal, undefined when none was waiting.
 */
export function sendPendingSignOut(): Promise<SignedOut> | undefined {
  const token = localStorage.getItem(PENDING_SIGN_OUT);
  return token === null ? undefined : sendSignOut(token);
}

/** A new sign-in replaced the cookie of the session signed out offline: nobody holds it any more. */
export const dropPendingSignOut = () => localStorage.removeItem(PENDING_SIGN_OUT);
