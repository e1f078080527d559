import { toString as qrCode } from 'qrcode';
import {
  printedCheckCode,
  vehicleColour,
  type CertificateDocument,
  type CertificateDocumentStatus,
} from '@transport/domain';
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
const colourRow = (hex: string | undefined) =>
  hex
    ? `<div><dt>Colour</dt><dd><span class="swatch" style="background:${html(hex)}"></span>${html(
        vehicleColour(hex)?.name ?? 'Other colour',
      )}</dd></div>`
    : '';

/** A vehicle's public fields as rows: make, model, colour, type, seats, union, station, assembly. */
function vehicleRows(v: PublicVehicle & { assembly?: string }): string {
  return `${rows([
    ['Make', v.make],
    ['Model', v.model],
  ])}${colourRow(v.color)}${rows([
    ['Type', v.type],
    ['Seats', v.capacity],
    ['Transport union', v.transportUnion],
    ['Station', v.station],
    ['Assembly', v.assembly],
  ])}`;
}

function page(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
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
<dl>${vehicleRows(c.vehicle)}${rows([['Approved', day(c.approvedAt, timeZone)], ...documents])}</dl>
<footer>${footer}</footer>
</main>
<nav class="screen-only" aria-label="Printing">${nav}</nav>`;
  return page(`${printed ? 'Certificate' : 'Preview of the certificate'} ${c.vehicle.registrationNumber}`, style, body);
}

const VERDICTS: Record<CertificateCheck['state'], { title: string; mark: string }> = {
  valid: { title: 'Valid', mark: '✓' },
  expired: { title: 'Expired', mark: '!' },
  withdrawn: { title: 'Withdrawn', mark: '✕' },
  not_genuine: { title: 'Not genuine', mark: '✕' },
};

function explanation(check: CertificateCheck, timeZone: string): string {
  const plate = check.vehicle?.registrationNumber;
  switch (check.state) {
    case 'valid':
      return `This vehicle is approved and its documents are current. Check that its plate reads <strong>${html(plate ?? '')}</strong>.`;
    case 'expired': {
      const ended = (check.documents ?? []).filter((d) => d.expired);
      const issuer = check.issuer ? html(check.issuer) : 'the assembly that approved it';
      // What a passenger can do about it, and who issued the certificate (who to tell), not only what lapsed.
      return `This vehicle is approved, but ${ended
        .map(
          (d) => `its ${html(DOCUMENT_NAMES[d.document].toLowerCase())} expired on ${html(day(d.expiresOn, timeZone))}`,
        )
        .join(
          ' and ',
        )}.</p><p>Until it is renewed, do not rely on this certificate: choose another vehicle if you can. If you travel, note the plate, and tell ${issuer}, which issued this certificate, or the police.`;
    }
    case 'withdrawn':
      return check.reason === 'approved_again'
        ? `This certificate was replaced: the vehicle ${html(plate ?? '')} was approved again and has a newer certificate. Do not rely on this one.`
        : `The approval of vehicle ${html(plate ?? '')} was withdrawn: this certificate no longer stands. Do not rely on it.`;
    case 'not_genuine':
      return 'This code was not issued by the transport authority, or it was altered. Do not rely on it.';
  }
}

function documentList(documents: CertificateDocumentStatus[], timeZone: string): string {
  return `<ul class="documents">${documents
    .map(
      (d) =>
        `<li class="${d.expired ? 'ended' : 'current'}"><span>${html(DOCUMENT_NAMES[d.document])}</span> <span>${
          d.expired ? 'expired' : 'valid until'
        } ${html(day(d.expiresOn, timeZone))}</span></li>`,
    )
    .join('')}</ul>`;
}

/** The public answer to a scanned certificate, phone-sized: the verdict first, then what the public may see. */
export function checkPage(check: CertificateCheck, timeZone: string): string {
  const verdict = VERDICTS[check.state];
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
.small{font-size:.9rem;color:#333;margin-top:1.2rem}`;
  const v = check.vehicle;
  const sections = [
    v && check.state !== 'withdrawn'
      ? `<h2>Vehicle</h2><dl>${rows([['Plate', v.registrationNumber]])}${vehicleRows(v)}</dl>`
      : '',
    check.driver !== undefined
      ? `<h2>Driver</h2>${
          check.driver
            ? `<dl>${rows([
                ['First name', check.driver.firstName],
                ['Rating', check.driver.rating === null ? 'not rated yet' : `${check.driver.rating} of 5`],
              ])}</dl>`
            : '<p>No approved driver is linked to this vehicle: ask the driver for their licence.</p>'
        }`
      : '',
    check.documents ? `<h2>Documents</h2>${documentList(check.documents, timeZone)}` : '',
  ].join('\n');
  const body = `<main>
<section class="verdict ${check.state}" aria-labelledby="verdict">
<h1 id="verdict"><span class="mark" aria-hidden="true">${verdict.mark}</span>${verdict.title}</h1>
<p>${explanation(check, timeZone)}</p>
</section>
${sections}
<p class="small">Checked ${html(moment(check.checkedAt, timeZone))}${
    check.certificate ? `. Certificate printed ${html(day(check.certificate.issuedAt, timeZone))}` : ''
  }${check.issuer ? `, issued by ${html(check.issuer)}` : ''}.</p>
</main>`;
  return page(`${verdict.title}: vehicle certificate check`, style, body);
}
