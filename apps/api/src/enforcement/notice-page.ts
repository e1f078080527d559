import type { NoticeState } from '@transport/domain';
import { contestSection } from './notice-contest-page';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const html = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Pesewas as the owner reads them: GHS 300.00. */
export const cedis = (pesewas: number) => `GHS ${(pesewas / 100).toFixed(2)}`;

/** A date and time in the assembly's time zone, as a person reads it. */
export const when = (at: Date, timeZone: string, time = true) =>
  new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...(time && { hour: '2-digit', minute: '2-digit' }),
    timeZone,
  }).format(at);

/** The officer as the public sees them: a number (the last six characters of their id), never a name. */
export const officerNumber = (officerId: string) => officerId.slice(-6).toUpperCase();

/** What the public page shows of a notice: what it needs to pay or contest it, nothing else about the owner. */
export interface PublicNotice {
  notice: NoticeState;
  plate: string;
  assembly: string;
  amountDue: number;
  serviceAddress: string;
  /** Where the contest form posts (`/n/<token>/contest`), and the time the page is made (is it still contestable?). */
  contestAction: string;
  now: Date;
  /** The "How to pay" part (notice-pay-page.ts): the mobile-money form, the prompt waiting, or nothing owed. */
  payment?: string;
}

/**
 * The public notice page: phone-sized, no script, no image, no web font, a few kB (usable on slow 3G). It names the
 * offence, time and place, the officer's number, the amount and due date, how to pay and contest, and how to tell a
 * genuine notice from a fake SMS.
 */
export function noticePage(p: PublicNotice, timeZone: string): string {
  const n = p.notice;
  const place = n.madeWhere
    ? `${n.madeWhere.coordinates[1].toFixed(5)}, ${n.madeWhere.coordinates[0].toFixed(5)}`
    : 'not recorded';
  const offences = n.offences
    .map((o) => `<li><b>${html(o.code)}</b> ${html(o.description)} <small>(${html(o.bylaw)})</small></li>`)
    .join('');
  const owed =
    n.status === 'paid'
      ? '<p class="ok">Paid in full. Thank you.</p>'
      : n.status === 'cancelled'
        ? '<p class="ok">Cancelled: nothing is owed.</p>'
        : `<p class="due">Amount due: <b>${html(cedis(p.amountDue))}</b> by ${html(when(n.dueAt, timeZone, false))}` +
          (n.surcharge > 0 ? ` (after that ${html(cedis(n.surcharge))} more)` : '') +
          '</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Notice ${html(n.id.slice(-8).toUpperCase())}</title><style>body{font-family:system-ui,sans-serif;margin:0;line-height:1.4}main{max-width:30rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem}dt{font-weight:600}dd{margin:0 0 .5rem}.due{background:#ffd166;padding:.6rem;border-radius:.4rem}.ok{background:#0b6b2e;color:#fff;padding:.6rem;border-radius:.4rem}small{color:#444}textarea{width:100%;font:inherit}blockquote{margin:.5rem 0;padding:.5rem;border-left:.3rem solid #999}</style></head><body><main>
<h1>Road traffic notice, ${html(p.assembly)}</h1>
<p>Status: <b>${html(n.status)}</b></p>
${owed}
<dl><dt>Notice number</dt><dd>${html(n.id.slice(-8).toUpperCase())}</dd><dt>Vehicle</dt><dd>${html(p.plate)}</dd><dt>When</dt><dd>${html(when(n.madeAt, timeZone))}</dd><dt>Where</dt><dd>${html(place)}</dd><dt>Officer number</dt><dd>${html(officerNumber(n.officerId))}</dd></dl>
<h2>Offences</h2><ul>${offences}</ul>
<h2>How to pay</h2>${p.payment ?? `<p>Pay ${html(p.assembly)} at the assembly's office quoting the notice number. Never pay an officer in cash, and never send money to a personal number.</p>`}
${contestSection(n, p.contestAction, p.now, timeZone)}
<h2>Is this notice genuine?</h2><p>A genuine notice is always on <b>${html(p.serviceAddress)}</b> and names your vehicle's plate, the offence and the officer's number. It never asks for your PIN or for money to a personal number. If a message sends you anywhere else, it is not from the assembly.</p>
</main></body></html>`;
}

/**
 * The page with links to its notice's evidence photos (issue 47, item 3), each served through the page's own token
 * without the location (GET /n/{token}/photos/{id}): links, not images, so the page stays a few kB on slow 3G.
 */
export function withEvidence(page: string, token: string, photoIds: readonly string[]): string {
  if (photoIds.length === 0) return page;
  const links = photoIds
    .map((id, i) => `<li><a href="/n/${html(token)}/photos/${html(id)}">Photo ${i + 1}</a></li>`)
    .join('');
  return page.replace('<h2>How to pay</h2>', `<h2>Evidence</h2><ul>${links}</ul>\n<h2>How to pay</h2>`);
}
