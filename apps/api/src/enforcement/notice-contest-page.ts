import { CONTEST_MAX_CHARS, type NoticeState } from '@transport/domain';
import { cedis, when } from './notice-page';

// The contest's part of the public notice page, and the pages that answer the contest form (no script: a plain form).

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const html = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

const OUTCOMES = { upheld: 'Upheld', reduced: 'Fine reduced', cancelled: 'Cancelled' } as const;

/**
 * "How to contest": the form while the notice can be contested (within its days, owed, not contested before), else
 * what became of the contest (the decision and its reason), of a cancellation, or why it cannot be contested.
 */
export function contestSection(n: NoticeState, action: string, now: Date, timeZone: string): string {
  const parts: string[] = ['<h2 id="contest">How to contest</h2>'];
  if (n.contest)
    parts.push(
      `<p>Contested on ${html(when(n.contest.at, timeZone))}${n.contest.photo ? ' (with a photo)' : ''}:</p><blockquote>${html(n.contest.text)}</blockquote>`,
      n.decision
        ? `<p>Decided on ${html(when(n.decision.at, timeZone))}: <b>${OUTCOMES[n.decision.outcome]}</b>${n.decision.amount !== undefined ? ` to ${html(cedis(n.decision.amount))}` : ''}. Reason: ${html(n.decision.reason)}</p>`
        : '<p>A supervisor who did not record the offence will decide, and you will be told the reason.</p>',
    );
  if (n.cancellation)
    parts.push(
      `<p>Cancelled on ${html(when(n.cancellation.at, timeZone))}. Reason: ${html(n.cancellation.reason)}</p>`,
    );
  if (n.contest || n.cancellation) return parts.join('');
  if (!n.contestBy) parts.push('<p>The offences on this notice cannot be contested.</p>');
  else if (now > n.contestBy || (n.status !== 'issued' && n.status !== 'overdue'))
    parts.push(`<p>This notice could be contested until ${html(when(n.contestBy, timeZone, false))}.</p>`);
  else
    parts.push(
      `<p>You may contest this notice until ${html(when(n.contestBy, timeZone, false))}, once. A supervisor who did not record it decides, and you are told the reason here and by SMS.</p>`,
      `<form method="post" action="${html(action)}" enctype="multipart/form-data">`,
      `<p><label for="text">Why do you contest it? (at most ${CONTEST_MAX_CHARS} characters)</label><br><textarea id="text" name="text" rows="5" maxlength="${CONTEST_MAX_CHARS}" required></textarea></p>`,
      '<p><label for="photo">A photo, if you have one (JPEG, PNG or WebP, at most 5 MB)</label><br><input id="photo" name="photo" type="file" accept="image/jpeg,image/png,image/webp"></p>',
      '<p><button type="submit">Contest the notice</button></p></form>',
    );
  return parts.join('');
}

/** What the owner is told after sending the contest form: received, or refused and why; and the way back to the notice. */
export function contestAnswerPage(title: string, message: string, back: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${html(title)}</title><style>body{font-family:system-ui,sans-serif;margin:0;line-height:1.4}main{max-width:30rem;margin:0 auto;padding:1rem}</style></head><body><main>
<h1>${html(title)}</h1><p>${html(message)}</p><p><a href="${html(back)}">Back to the notice</a></p>
</main></body></html>`;
}

/** The owner's words for each refusal of the form (by the problem's code); the problem's own detail otherwise. */
export const CONTEST_REFUSALS: Record<string, string> = {
  NOTICE_CONTEST_CLOSED: 'The days to contest this notice have passed.',
  NOTICE_NOT_CONTESTABLE: 'The offences on this notice cannot be contested.',
  NOTICE_ALREADY_CONTESTED: 'This notice has been contested already; a notice is contested once.',
  NOTICE_ALREADY_PAID: 'This notice is paid: it can no longer be contested.',
  NOTICE_CANCELLED: 'This notice was cancelled: nothing is owed.',
  BODY_TOO_LARGE: 'The photo is too large: send one of at most 5 MB.',
  UNSUPPORTED_MEDIA_TYPE: 'The photo must be a JPEG, PNG or WebP image.',
  RATE_LIMITED: 'Too many tries from your connection. Please try again later.',
  NOT_FOUND: 'This link does not name a notice.',
};
