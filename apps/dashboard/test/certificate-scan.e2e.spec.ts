import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import jsQR from 'jsqr';
import { create as qrMatrix } from 'qrcode';
import { CHROMIUM_FLAGS, expectAccessible, SHOTS, startDemo, type Running } from './support/demo';

// Vehicle certificates in a real browser at a phone's size (390x844): the printed certificate's QR code holds the
// check URL, the public page a passenger opens, and the dashboard's scan screen reading the code from a camera
// (Chromium's fake camera playing a video of the printed QR code) and checking its signature with no signal at all.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * A camera's video of a QR code: a Y4M file (what Chromium's fake capture device plays) of one 480x480 frame, the
 * code's dark modules black on white, with a quiet zone.
 */
function qrVideo(text: string): string {
  const { size, data } = qrMatrix(text, { errorCorrectionLevel: 'M' }).modules;
  const side = 480;
  const scale = Math.floor(side / (size + 8));
  const offset = Math.floor((side - size * scale) / 2);
  const luma = Buffer.alloc(side * side, 255);
  for (let y = 0; y < size * scale; y++)
    for (let x = 0; x < size * scale; x++)
      if (data[Math.floor(y / scale) * size + Math.floor(x / scale)]) luma[(offset + y) * side + offset + x] = 0;
  const chroma = Buffer.alloc((side / 2) * (side / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const file = join(tmpdir(), `certificate-qr-${process.pid}.y4m`);
  writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${side} H${side} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]),
  );
  return file;
}

describe('vehicle certificates in a browser at phone size', () => {
  let running: Running;
  let browser: Browser;
  let base: string;
  const checkUrl: Record<string, string> = {};
  const problems: string[] = [];

  const heading = (page: Page, level: number, name: string | RegExp) => page.getByRole('heading', { level, name });
  const asStaff = (path: string, method = 'GET') =>
    fetch(new URL(path, base), { method, headers: { Authorization: running.keys.assembly } }).then((r) => {
      if (!r.ok) throw new Error(`${path}: ${r.status}`);
      return r;
    });
  const shot = async (page: Page, name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `phone-${name}.png`), fullPage: true });
  };
  const watch = (page: Page) => {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The API's 4xx answers are not the page's bugs, nor are requests refused while the test has it offline.
      const expected = /^Failed to load resource: (.* status of 4\d\d|net::ERR_INTERNET_DISCONNECTED)/;
      if (message.type() === 'error' && !expected.test(message.text())) problems.push(message.text());
    });
    return page;
  };

  beforeAll(async () => {
    running = await startDemo('certificate_e2e');
    base = new URL('/', running.url).toString();
    for (const plate of ['GE 5505-20', 'GN 6606-19']) {
      const [vehicle] = (await (
        await asStaff(`/vehicles/all?registrationNumber=${encodeURIComponent(plate)}`)
      ).json()) as Array<{ _id: string }>;
      const page = await (await asStaff(`/vehicles/${vehicle._id}/certificate`, 'POST')).text();
      const link = /href="([^"]+\/v\/[^"]+)"/.exec(page)?.[1];
      if (!link) throw new Error(`no check link in the certificate of ${plate}`);
      // The link is on PUBLIC_BASE_URL (unset here: the service's own address); the browser goes to localhost, its
      // secure context for plain http.
      checkUrl[plate] = new URL(new URL(link).pathname, base).toString();
    }
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        ...CHROMIUM_FLAGS,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${qrVideo(checkUrl['GE 5505-20'])}`,
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it('prints a certificate from the vehicle screen (one audited print, with the CSRF token), its QR code holding the check URL, accessible, with A6 print CSS', async () => {
    const context = await browser.newContext(PHONE);
    try {
      const dashboard = watch(await context.newPage());
      await dashboard.goto(running.url);
      await heading(dashboard, 1, 'Sign in').waitFor();
      await dashboard.getByLabel('Email address').fill(running.demo.approver);
      await dashboard.getByLabel('Password', { exact: true }).fill(running.demo.password);
      await dashboard.getByRole('button', { name: 'Sign in' }).click();
      await heading(dashboard, 1, 'Work queues').waitFor();
      const [vehicle] = (await (await asStaff('/vehicles/all?registrationNumber=GE%205505-20')).json()) as Array<{
        _id: string;
      }>;
      const audited = async () =>
        ((await (await asStaff(`/audit?entity=vehicle&id=${vehicle._id}`)).json()) as Array<{ action: string }>)
          .map((e) => e.action)
          .filter((a) => a.startsWith('Certificate'));
      const before = await audited();
      await dashboard.goto(`${running.url}#/vehicles/${vehicle._id}`);
      await heading(dashboard, 1, /GE 5505-20/).waitFor();
      // Opening the vehicle (and its certificate's preview) prints nothing.
      await asStaff(`/vehicles/${vehicle._id}/certificate`);
      expect(await audited()).toEqual(before);
      const posted = dashboard.waitForRequest(
        (r) => r.method() === 'POST' && r.url().endsWith(`/vehicles/${vehicle._id}/certificate?size=a6`),
      );
      const [page] = await Promise.all([
        context.waitForEvent('page'),
        dashboard.getByRole('button', { name: 'Print certificate' }).click(),
      ]);
      expect((await posted).headers()['x-csrf-token']).toMatch(/\S/);
      watch(page);
      await heading(page, 1, 'GE 5505-20').waitFor();
      expect(await audited()).toEqual([...before, before.length === 0 ? 'CertificateIssued' : 'CertificateReprinted']);
      await expectAccessible(page, 'printed certificate');
      expect(await page.content()).toContain('@page{size:105mm 148mm');
      // The QR code, drawn as a printer would (the page's own SVG on white), read back with jsQR.
      const side = 300;
      const pixels = await page.evaluate(async (side) => {
        const svg = document.querySelector('.qr svg') as SVGSVGElement;
        const image = new Image();
        image.src = `data:image/svg+xml,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = side;
        const context = canvas.getContext('2d') as CanvasRenderingContext2D;
        context.fillStyle = '#fff';
        context.fillRect(0, 0, side, side);
        context.drawImage(image, 0, 0, side, side);
        // As base64: a plain array of 360,000 numbers is slow to hand over.
        const data = context.getImageData(0, 0, side, side).data;
        let binary = '';
        for (let i = 0; i < data.length; i += 8192) binary += String.fromCharCode(...data.subarray(i, i + 8192));
        return btoa(binary);
      }, side);
      const decoded = jsQR(new Uint8ClampedArray(Buffer.from(pixels, 'base64')), side, side)?.data;
      // Each print signs anew (its time is in the token): the code holds this page's own check link.
      const linked = await page.getByRole('link', { name: 'What a scan of it shows' }).getAttribute('href');
      expect(decoded).toBe(linked);
      expect(decoded).toMatch(/\/v\/[\w-]+\.[\w-]+\.[\w-]+$/);
      await shot(page, 'certificate-printed');
    } finally {
      await context.close();
    }
  });

  it('shows a passenger a valid certificate plainly, on a phone, with no key, accessible', async () => {
    const context = await browser.newContext(PHONE);
    try {
      const page = watch(await context.newPage());
      const answer = await page.goto(checkUrl['GE 5505-20']);
      expect(answer?.headers()['cache-control']).toMatch(/^public, max-age=\d+/);
      await heading(page, 1, 'Valid').waitFor();
      await page.getByText('GE 5505-20').first().waitFor();
      await page.getByRole('heading', { level: 2, name: 'Driver' }).waitFor();
      // Nothing wider than the phone's screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(page, 'public check (valid)');
      await shot(page, 'certificate-check-valid');

      await page.goto(checkUrl['GN 6606-19']);
      await heading(page, 1, 'Expired').waitFor();
      await page.getByText(/its roadworthy certificate expired on/).waitFor();
      await expectAccessible(page, 'public check (expired)');

      const [header, payload, signature] = new URL(checkUrl['GE 5505-20']).pathname.split('/').pop()!.split('.');
      const forged = `${header}.${payload.slice(0, -2)}${payload.slice(-2) === 'AA' ? 'BB' : 'AA'}.${signature}`;
      await page.goto(new URL(`/v/${forged}`, base).toString());
      await heading(page, 1, 'Not genuine').waitFor();
      await expectAccessible(page, 'public check (not genuine)');
      await shot(page, 'certificate-check-not-genuine');
    } finally {
      await context.close();
    }
  });

  it('scans a certificate with the camera on the dashboard, and checks it with no signal', async () => {
    const context = await browser.newContext(PHONE);
    try {
      const page = watch(await context.newPage());
      await page.goto(running.url);
      await heading(page, 1, 'Sign in').waitFor();
      await page.getByLabel('Email address').fill(running.demo.approver);
      await page.getByLabel('Password', { exact: true }).fill(running.demo.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await heading(page, 1, 'Work queues').waitFor();
      await page.getByRole('link', { name: 'Check a certificate' }).click();
      await heading(page, 1, 'Check a vehicle certificate').waitFor();
      await expectAccessible(page, 'scan');

      // The camera (Chromium's fake one, playing the printed QR code): read, verified here, then asked about.
      await page.getByRole('button', { name: 'Scan with the camera' }).click();
      await heading(page, 2, 'Valid').waitFor({ timeout: 20_000 });
      const verdict = page.locator('.verdict');
      await verdict.getByText('GE 5505-20').waitFor();
      await verdict.getByText('Signature checked on this device.', { exact: false }).waitFor();
      await verdict.getByText(/Current state from the service/).waitFor();
      await expectAccessible(page, 'scan (valid)');
      await shot(page, 'certificate-scan-valid');

      // With no signal: the kept keys still tell a genuine signature from a forged one.
      await context.setOffline(true);
      const link = page.getByLabel('Link or code from the certificate');
      await link.fill(checkUrl['GE 5505-20']);
      await page.getByRole('button', { name: 'Check', exact: true }).click();
      await heading(page, 2, 'Genuine signature').waitFor();
      await verdict.getByText('No signal: the current state could not be fetched.').waitFor();
      await verdict.getByText('GE 5505-20').waitFor();
      await expectAccessible(page, 'scan (offline, genuine)');
      await shot(page, 'certificate-scan-offline');

      const token = checkUrl['GE 5505-20'].split('/v/')[1];
      const [header, payload, signature] = token.split('.');
      const forged = `${header}.${payload}.${signature.slice(0, 5)}${signature[5] === 'A' ? 'B' : 'A'}${signature.slice(6)}`;
      await link.fill(forged);
      await page.getByRole('button', { name: 'Check', exact: true }).click();
      await heading(page, 2, 'Not genuine').waitFor();
      await verdict.getByText('Its signature does not match: it was altered or forged.').waitFor();
      await context.setOffline(false);

      // Back online, an expired certificate: the service's state names the document.
      await link.fill(checkUrl['GN 6606-19']);
      await page.getByRole('button', { name: 'Check', exact: true }).click();
      await heading(page, 2, 'Expired').waitFor();
      await verdict.getByText(/these have expired: roadworthy certificate/).waitFor();
      await expectAccessible(page, 'scan (expired)');
    } finally {
      await context.close();
    }
  });
});
