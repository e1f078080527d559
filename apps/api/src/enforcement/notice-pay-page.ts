import type { NoticeState } from '@transport/domain';
import { cedis, when } from './notice-page';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const html = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A phone number as the page shows it: its last three digits only (the page is public). */
export const numberEnding = (phone: string) => `the number ending ${phone.slice(-3)}`;

/** A payment of the notice still waiting for the provider's word. */
export interface OpenPrompt {
  phone: string;
  amount: number;
  at: Date;
}

/**
 * The notice page's "How to pay" part (issue 47): the mobile-money form (a plain form POST, no script), or the prompt
 * still waiting for approval, or why nothing can be paid; and what was received so far.
 */
export function paySection(
  notice: NoticeState,
  token: string,
  due: number,
  open: OpenPrompt | undefined,
  timeZone: string,
): string {
  const received =
    notice.paid > 0 && due > 0
      ? `<p>Received so far: ${html(cedis(notice.paid))}; still owed: <b>${html(cedis(due))}</b>.</p>`
      : '';
  const office = 'Never pay an officer in cash, and never send money to a personal number.';
  if (notice.status === 'paid' || notice.status === 'cancelled' || due === 0)
    return `<p>Nothing is owed. ${office}</p>`;
  if (notice.status === 'contested')
    return `<p>The notice is contested: nothing can be paid until the supervisor decides. ${office}</p>`;
  if (open)
    return `${received}<p class="due">A payment prompt for ${html(cedis(open.amount))} was sent to ${html(numberEnding(open.phone))} at ${html(when(open.at, timeZone))}. Approve it on that phone with your mobile-money PIN; this page shows the payment once the provider confirms it. A prompt that is not approved expires after a few minutes.</p><p>${office}</p>`;
  return `${received}<form method="post" action="${html(token)}/pay"><label>Pay ${html(cedis(due))} by mobile money (MTN, Telecel or AirtelTigo). Your number: <input name="phone" type="tel" inputmode="tel" autocomplete="tel" maxlength="20" required placeholder="024 412 3456"></label> <button type="submit">Send the payment prompt</button></form><p>Your phone asks you to approve the payment with your PIN: only you type it, on your phone. You may also pay at the assembly's office quoting the notice number. ${office}</p>`;
}

/** The small page that answers the form: what happened, and the way back to the notice. */
export function payAnswerPage(title: string, message: string, token: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${html(title)}</title><style>body{font-family:system-ui,sans-serif;margin:0;line-height:1.4}main{max-width:30rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem}</style></head><body><main>
<h1>${html(title)}</h1><p>${html(message)}</p><p><a href="../${html(token)}">Back to the notice</a></p>
</main></body></html>`;
}
