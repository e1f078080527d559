import { toString as qrCode } from 'qrcode';
import {
  printedCheckCode,
  vehicleColour,
  type CertificateDocument,
  type CertificateDocumentStatus,
} from '@transport/domain';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@transport/domain';
import { formattingLocale } from '../i18n/catalogue';
import { checkPageCatalogue, ussdCatalogue, type CheckPageKey, type UssdKey } from '../i18n/catalogues';
import type { CertificateCheck, CertificatePreview, PrintedCertificate, PublicVehicle } from './certificates.service';

/** The paper a certificate is printed on: an A6 sticker (the windscreen) or an A4 page (the owner's file). */
export const CERTIFICATE_SIZES = ['a6', 'a4'] as const;
export type CertificateSize = (typeof CERTIFICATE_SIZES)[number];

// The pages are plain HTML with their styles inline and no script: the API's Content-Security-Policy allows inline
// styles but no inline script, and a passenger's phone should get the verdict in one small response.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const html = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

export const DOCUMENT_NAMES: Record<CertificateDocument, string> = {
  roadworthy: 'Roadworthy certificate',
  insurance: 'Insurance',
  driverLicense: "Driver's licence",
};

/**
 * The words of the public pages in one language (apps/api/src/i18n/check-page/<language>.json; colours from the
 * USSD catalogue's): the check page in the reader's, the printed certificate in English.
 */
interface Words {
  language: Language;
  t: (key: CheckPageKey, values?: Record<string, string | number | Date>) => string;
  html: (key: CheckPageKey, values?: Record<string, string | number | Date>, markup?: Record<string, string>) => string;
  colour: (key: string) => string;
}

const PAGE_CATALOGUES = new Map<string, ReturnType<typeof checkPageCatalogue>>();
const COLOUR_CATALOGUES = new Map<string, ReturnType<typeof ussdCatalogue>>();
function wordsOf(language: Language, timeZone: string): Words {
  let page = PAGE_CATALOGUES.get(timeZone);
  if (!page) PAGE_CATALOGUES.set(timeZone, (page = checkPageCatalogue(timeZone)));
  let colours = COLOUR_CATALOGUES.get(timeZone);
  if (!colours) COLOUR_CATALOGUES.set(timeZone, (colours = ussdCatalogue(timeZone)));
  const p = page;
  const c = colours;
  const locale = formattingLocale(language);
  return {
    language,
    t: (key, values) => p.format(language, key, values),
    html: (key, values, markup) => p.formatHtml(language, key, values, markup),
    colour: (key) => {
      const name = c.format(language, `colour.${key}` as UssdKey);
      return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
    },
  };
}

const day = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(date);
const moment = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);

function rows(entries: Array<[string, string | number | undefined]>): string {
  return entries
    .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
    .map(([term, value]) => `<div><dt>${html(term)}</dt><dd>${html(value)}</dd></div>`)
    .join('');
}

/**
 * The colour as a swatch beside its name, as people say it ("Gold", not "#FFD700"); a colour without a name in the
 * domain's list is "Other colour" (its hex means nothing to a passenger), the swatch still showing it.
 */
const colourRow = (hex: string | undefined, w: Words) => {
  if (!hex) return '';
  const key = vehicleColour(hex)?.key;
  return `<div><dt>${w.html('field.colour')}</dt><dd><span class="swatch" style="background:${html(hex)}"></span>${html(
    key ? w.colour(key) : w.t('colour.other'),
  )}</dd></div>`;
};

/** A vehicle's public fields as rows: make, model, colour, type, seats, union, station, assembly. */
function vehicleRows(v: PublicVehicle & { assembly?: string }, w: Words): string {
  return `${rows([
    [w.t('field.make'), v.make],
    [w.t('field.model'), v.model],
  ])}${colourRow(v.color, w)}${rows([
    [w.t('field.type'), v.type],
    [w.t('field.seats'), v.capacity],
    [w.t('field.union'), v.transportUnion],
    [w.t('field.station'), v.station],
    [w.t('field.assembly'), v.assembly],
  ])}`;
}

function page(title: string, style: string, body: string, language: Language = DEFAULT_LANGUAGE): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title>
<style>
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111;background:#fff;line-height:1.35}
dl{margin:0}
dl div{display:flex;justify-content:space-between;gap:1em;padding:.3em 0;border-bottom:1px solid #ccc}
dt{color:#333}
dd{margin:0;font-weight:600;text-align:right}
.swatch{display:inline-block;width:.9em;height:.9em;border:1px solid #333;margin-right:.3em;vertical-align:-.1em}
${style}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * The printable certificate: the plate large, the QR code, the vehicle's fields and its documents' expiry dates. A
 * preview (viewed, not printed) has no QR code in its place and says so on screen and on paper: it is no certificate.
 */
export async function certificatePage(
  c: PrintedCertificate | CertificatePreview,
  size: CertificateSize,
  timeZone: string,
): Promise<string> {
  const printed = c.kind === 'printed';
  const qr = printed ? await qrCode(c.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) : '';
  const a4 = size === 'a4';
  // The paper's size in millimetres: Chromium ignores the A6 keyword (it knows A5, A4, A3, letter...) and falls back
  // to the printer's default, Letter; a length it honours.
  const style = `
@page{size:${a4 ? '210mm 297mm' : '105mm 148mm'};margin:${a4 ? '15mm' : '5mm'}}
.sheet{max-width:${a4 ? '180mm' : '95mm'};margin:0 auto;padding:${a4 ? '10mm' : '3mm'};font-size:${a4 ? '13pt' : '8pt'}}
@media screen{.sheet{border:1px solid #999;margin:1em auto}}
@media print{.screen-only{display:none}.sheet{padding:0}.sheet dl div{padding:${a4 ? '.25em' : '.12em'} 0}}
.authority{margin:0;font-weight:600;text-transform:uppercase;letter-spacing:.05em}
h1{margin:.2em 0;font-size:${a4 ? '2.6em' : '2.3em'};letter-spacing:.04em;text-align:center;border:3px solid #111;padding:.1em}
.qr{width:${a4 ? '80mm' : '38mm'};margin:.3em auto}
.qr svg{display:block;width:100%;height:auto}
.preview{display:flex;align-items:center;justify-content:center;aspect-ratio:1;border:3px dashed #111;text-align:center;font-weight:700;padding:.5em}
.hint{text-align:center;margin:.2em 0 .6em}
h2{font-size:1.1em;margin:.8em 0 .2em}
footer{margin-top:.8em;font-size:.85em;color:#333}
.screen-only{max-width:${a4 ? '180mm' : '95mm'};margin:1em auto;font-size:1rem}`;
  const documents = c.documents.map((d): [string, string] => [
    `${DOCUMENT_NAMES[d.document]} until`,
    day(d.expiresOn, timeZone),
  ]);
  const code = printed
    ? `<div class="qr" role="img" aria-label="QR code: scan it to check this certificate">${qr}</div>
<p class="hint">Scan to check this vehicle: valid, expired, withdrawn or not genuine.</p>
<p class="hint">No smartphone? Check code <strong class="check-code">${html(printedCheckCode(c.checkCode))}</strong> by USSD or SMS.</p>`
    : `<div class="qr preview">Preview: not a certificate. The QR code is added when it is printed.</div>`;
  const footer = printed
    ? `Printed ${html(moment(c.issuedAt, timeZone))} · key ${html(c.keyId)}${c.reprint ? ' · reprint' : ''}`
    : `Preview ${html(moment(c.viewedAt, timeZone))} · not printed`;
  const nav = printed
    ? `<p>Print with your browser (Ctrl+P). <a href="${html(c.url)}">What a scan of it shows</a>.</p>`
    : `<p>A preview: viewing is not printing, and it has no QR code. Print from the vehicle's screen in the dashboard ("Print certificate"), or POST to this address. Sizes: <a href="?size=a6">A6 sticker</a> · <a href="?size=a4">A4 page</a>.</p>`;
  const body = `<main class="sheet">
<p class="authority">Approved commercial vehicle${c.vehicle.assembly ? ` · ${html(c.vehicle.assembly)}` : ''}</p>
<h1>${html(c.vehicle.registrationNumber)}</h1>
${code}
<dl>${vehicleRows(c.vehicle, wordsOf(DEFAULT_LANGUAGE, timeZone))}${rows([['Approved', day(c.approvedAt, timeZone)], ...documents])}</dl>
<footer>${footer}</footer>
</main>
<nav class="screen-only" aria-label="Printing">${nav}</nav>`;
  return page(`${printed ? 'Certificate' : 'Preview of the certificate'} ${c.vehicle.registrationNumber}`, style, body);
}

const MARKS: Record<CertificateCheck['state'], string> = { valid: '✓', expired: '!', withdrawn: '✕', not_genuine: '✕' };

function explanation(check: CertificateCheck, w: Words): string {
  const plate = check.vehicle?.registrationNumber ?? '';
  switch (check.state) {
    case 'valid':
      return w.html('explain.valid', {}, { plate: `<strong>${html(plate)}</strong>` });
    case 'expired': {
      // What a passenger can do about it, and who issued the certificate (who to tell), not only what lapsed.
      const ended = (check.documents ?? [])
        .filter((d) => d.expired)
        .map((d) =>
          w.html('explain.expiredDocument', {
            document: documentName(d.document, w).toLocaleLowerCase(),
            date: d.expiresOn,
          }),
        )
        .join(w.html('explain.and'));
      return `${w.html('explain.expired', {}, { ended })}</p><p>${w.html('explain.expiredAdvice', {
        issuer: check.issuer ?? w.t('explain.issuerUnknown'),
      })}`;
    }
    case 'withdrawn':
      return check.reason === 'approved_again'
        ? w.html('explain.replaced', { plate })
        : w.html('explain.withdrawn', { plate });
    case 'not_genuine':
      return w.html('explain.notGenuine');
  }
}

const documentName = (document: CertificateDocument, w: Words) => w.t(`document.${document}`);

function documentList(documents: CertificateDocumentStatus[], w: Words): string {
  return `<ul class="documents">${documents
    .map(
      (d) =>
        `<li class="${d.expired ? 'ended' : 'current'}"><span>${html(documentName(d.document, w))}</span> <span>${w.html(
          'document.state',
          { expired: d.expired ? 'yes' : 'no', date: d.expiresOn },
        )}</span></li>`,
    )
    .join('')}</ul>`;
}

/** The language switch: every language by its own name, a link to this page in it (`?lang=`), the current one marked. */
function languageSwitch(w: Words): string {
  return `<nav class="languages" aria-label="${w.html('page.languages')}"><ul>${LANGUAGES.map((l) =>
    l.code === w.language
      ? `<li><a href="?lang=${l.code}" lang="${l.code}" hreflang="${l.code}" aria-current="page">${html(l.name)}</a></li>`
      : `<li><a href="?lang=${l.code}" lang="${l.code}" hreflang="${l.code}">${html(l.name)}</a></li>`,
  ).join('')}</ul></nav>`;
}

/** The public answer to a scanned certificate, phone-sized: the verdict first, then what the public may see. */
export function checkPage(check: CertificateCheck, timeZone: string, language: Language = DEFAULT_LANGUAGE): string {
  const w = wordsOf(language, timeZone);
  const title = w.t(`verdict.${check.state}`);
  const style = `
main{max-width:30rem;margin:0 auto;padding:1rem}
.verdict{border-radius:.6rem;padding:1rem;margin-bottom:1rem}
.verdict h1{margin:0;font-size:2rem;display:flex;align-items:center;gap:.5rem}
.verdict p{margin:.5rem 0 0;font-size:1.1rem}
.mark{display:inline-flex;justify-content:center;align-items:center;width:2.4rem;height:2.4rem;border-radius:50%;background:#fff;font-size:1.5rem}
.valid{background:#0b6b2e;color:#fff}.valid .mark{color:#0b6b2e}
.expired{background:#ffd166;color:#1a1300}.expired .mark{color:#7a4b00}
.withdrawn{background:#a61b1b;color:#fff}.withdrawn .mark{color:#a61b1b}
.not_genuine{background:#111;color:#fff}.not_genuine .mark{color:#111}
h2{font-size:1.1rem;margin:1.2rem 0 .3rem}
.documents{list-style:none;padding:0;margin:0}
.documents li{display:flex;justify-content:space-between;gap:1em;padding:.3em 0;border-bottom:1px solid #ccc}
.documents .ended{color:#8a1010;font-weight:600}
.small{font-size:.9rem;color:#333;margin-top:1.2rem}
.languages ul{list-style:none;display:flex;flex-wrap:wrap;gap:.2rem .9rem;padding:0;margin:0 0 .8rem}
.languages a{color:#0b3d91;display:inline-block;padding:.3rem 0}
.languages a[aria-current]{color:#111;font-weight:700;text-decoration:none}`;
  const v = check.vehicle;
  const sections = [
    v && check.state !== 'withdrawn'
      ? `<h2>${w.html('heading.vehicle')}</h2><dl>${rows([[w.t('field.plate'), v.registrationNumber]])}${vehicleRows(v, w)}</dl>`
      : '',
    check.driver !== undefined
      ? `<h2>${w.html('heading.driver')}</h2>${
          check.driver
            ? `<dl>${rows([
                [w.t('field.firstName'), check.driver.firstName],
                [
                  w.t('field.rating'),
                  check.driver.rating === null
                    ? w.t('rating.none')
                    : w.t('rating.value', { rating: check.driver.rating }),
                ],
              ])}</dl>`
            : `<p>${w.html('driver.none')}</p>`
        }`
      : '',
    check.documents ? `<h2>${w.html('heading.documents')}</h2>${documentList(check.documents, w)}` : '',
  ].join('\n');
  const body = `<main>
${languageSwitch(w)}
<section class="verdict ${check.state}" aria-labelledby="verdict">
<h1 id="verdict"><span class="mark" aria-hidden="true">${MARKS[check.state]}</span>${html(title)}</h1>
<p>${explanation(check, w)}</p>
</section>
${sections}
<p class="small">${w.html('footer.checked', { at: check.checkedAt })}${
    check.certificate ? `. ${w.html('footer.printed', { at: check.certificate.issuedAt })}` : ''
  }${check.issuer ? `, ${w.html('footer.issuer', { issuer: check.issuer })}` : ''}.</p>
</main>`;
  return page(w.t('page.title', { verdict: title }), style, body, language);
}
