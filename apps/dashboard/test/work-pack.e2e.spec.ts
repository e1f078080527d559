import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  eventually,
  expectAccessible,
  hasText,
  launch,
  signIn,
  startDemo,
  tickEveryItem,
  visible,
  type Running,
} from './support/demo';

// Issue 43, item 8: without a signal an inspector could not open a vehicle they had not opened before. The phone keeps
// the work pack of the inspector's assembly (encrypted, never past the session), searches it offline, and an inspection
// of a plate it does not know is kept and matched to its vehicle when there is a signal. Chromium at 390x844.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };

/** The work pack as IndexedDB holds it (read without creating the database when it does not exist). */
async function stored(page: Page) {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'dashboard-pack')) return { pack: null, key: null };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('dashboard-pack');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const get = (store: string, key: string) =>
      new Promise<unknown>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const pack = (await get('pack', 'pack')) as { sealed: ArrayBuffer; count: number } | undefined;
    const key = (await get('keys', 'pack-key')) as CryptoKey | undefined;
    db.close();
    const exported = key
      ? await crypto.subtle.exportKey('raw', key).then(
          () => 'exported',
          () => 'refused',
        )
      : null;
    return {
      pack: pack
        ? {
            count: pack.count,
            isBuffer: pack.sealed instanceof ArrayBuffer,
            text: new TextDecoder('latin1').decode(pack.sealed),
          }
        : null,
      key: key ? { extractable: key.extractable, algorithm: key.algorithm.name, exported } : null,
    };
  });
}

describe("an inspector's work pack, for vehicles never opened on the phone (issue 43, item 8)", () => {
  let browser: Browser;
  let running: Running;
  let url: string;
  const problems: string[] = [];

  const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const asAssembly = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, url), {
      ...init,
      headers: {
        Authorization: running.keys.assembly,
        'Content-Type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });
  const vehicle = async (plate: string) =>
    (
      (await (await asAssembly(`/vehicles/all?registrationNumber=${encodeURIComponent(plate)}`)).json()) as Array<{
        _id: string;
        __v: number;
        inspected: boolean;
        inspectedBy?: string;
        dateInspected?: string;
      }>
    )[0];
  /** An inspector signed in on a phone whose work pack has arrived (the Find screen says its age). */
  const inspectorWithPack = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(url);
    await signIn(page, running.demo.inspector, running.demo.password);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.goto(`${url}#/find`);
    await hasText(page.locator('.pack-age'), 'Work pack on this phone: 6 vehicles of your assembly, updated just now');
    return { context, page };
  };
  const find = async (page: Page, typed: string) => {
    await page.goto(`${url}#/find`);
    await heading(page, 'Find a record').waitFor();
    await page.getByLabel('Plate, VIN, name, phone, email or licence').fill(typed);
  };

  beforeAll(async () => {
    running = await startDemo('dashboard_work_pack');
    url = running.url;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it('finds offline, by its plate typed any way, a vehicle never opened on this phone, and records its inspection', async () => {
    const { context, page } = await inspectorWithPack();
    try {
      const before = await vehicle('GN 6606-19');
      await context.setOffline(true);
      // After a reload too: the pack is read back from the phone's storage, not from the page's memory.
      await page.reload();
      // The inspection queue, as the pack holds it.
      await page.goto(`${url}#/`);
      await heading(page, 'Work queues').waitFor();
      const queue = page.locator('section', {
        has: page.getByRole('heading', { name: 'Awaiting inspection, from the work pack on this phone' }),
      });
      await visible(queue.getByRole('link', { name: 'GR 1001-24' }));
      expect(await queue.getByRole('link', { name: 'GT 4404-21' }).count()).toBe(0);
      await expectAccessible(page, 'the inspection queue from the work pack');
      await find(page, 'gn6606 19');
      await hasText(page.getByRole('status'), 'No connection: 1 vehicle found in the work pack');
      await expectAccessible(page, 'find offline in the work pack');
      await page.getByRole('link', { name: 'GN 6606-19' }).click();
      await heading(page, 'Vehicle GN 6606-19').waitFor();
      await page.getByRole('link', { name: 'Record an inspection' }).click();
      await heading(page, 'Vehicle GN 6606-19 · Record an inspection').waitFor();
      await tickEveryItem(page);
      await page.getByRole('button', { name: 'Record the inspection' }).click();
      await hasText(page.locator('header .outbox'), '1 inspection waiting to send');
      expect((await vehicle('GN 6606-19')).__v).toBe(before.__v);
      await context.setOffline(false);
      await eventually(async () => (await vehicle('GN 6606-19')).__v === before.__v + 1, 'the inspection received');
      expect((await vehicle('GN 6606-19')).inspected).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('keeps the pack encrypted at rest under a key the page cannot export, and deletes both at sign-out', async () => {
    const { context, page } = await inspectorWithPack();
    try {
      const kept = await stored(page);
      expect(kept.pack).toMatchObject({ count: 6, isBuffer: true });
      for (const plain of ['GR 1001-24', 'GN 6606-19', 'Toyota', 'registrationNumber'])
        expect(kept.pack?.text).not.toContain(plain);
      expect(kept.key).toEqual({ extractable: false, algorithm: 'AES-GCM', exported: 'refused' });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await heading(page, 'Sign in').waitFor();
      expect(await stored(page)).toEqual({ pack: null, key: null });
    } finally {
      await context.close();
    }
  });

  it('deletes the pack at load when the session ended while the phone was offline', async () => {
    const { context, page } = await inspectorWithPack();
    try {
      // An answer the service gave just before the signal went (the work queues', slow under load) reaches the page
      // after the phone went offline: it says the service answered this phone now, as any answer does.
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding = false;
      let taken = false;
      await page.route('**/vehicles/all?*', async (route) => {
        // Only the first answer is held; a later request goes as it would (offline: it fails).
        if (taken) return route.fallback();
        taken = true;
        const answer = await route.fetch();
        holding = true;
        await held;
        // A request the page dropped meanwhile (the reload below, or the context closing) has nobody to answer: the
        // error would surface after the test, in whichever test runs then. `landed` fails the test if this one does.
        await route.fulfill({ response: answer }).catch(() => undefined);
      });
      await page.goto(`${url}#/`);
      await eventually(async () => holding, 'an answer on its way');
      await context.setOffline(true);
      const landed = page.waitForResponse('**/vehicles/all?*');
      // The service last answered this phone two hours ago: past the demo session's idle end (30 minutes). Written
      // before the page's own scripts run at the reload, so no answer to the page before it can write over it.
      await page.addInitScript(() => {
        if (sessionStorage.getItem('pack-touched-set')) return;
        sessionStorage.setItem('pack-touched-set', '1');
        localStorage.setItem('transport.pack-touched', String(Date.now() - 2 * 3_600_000));
      });
      release();
      await landed;
      await page.unroute('**/vehicles/all?*');
      await page.reload();
      await eventually(async () => (await stored(page)).pack === null, 'the pack deleted at load');
      expect((await stored(page)).key).toBeNull();
      await find(page, 'GN 6606');
      await hasText(page.getByRole('status'), 'no vehicle of the work pack has that plate');
    } finally {
      await context.close();
    }
  });

  it('records offline an inspection of a plate not on the phone, matches it when online, and keeps one it cannot match', async () => {
    const { context, page } = await inspectorWithPack();
    page.on('dialog', (dialog) => void dialog.accept());
    try {
      // Registered after the phone fetched its pack.
      const [owner] = (await (await asAssembly('/vehicles/owner/all')).json()) as Array<{ _id: string }>;
      const added = await asAssembly('/vehicles/add', {
        method: 'POST',
        body: JSON.stringify({ ownerID: owner._id, registrationNumber: 'GR 7777-26', make: 'Kia', model: 'Rio' }),
      });
      expect(added.status).toBe(201);
      await context.setOffline(true);
      for (const plate of ['gr 7777 26', 'ZZ 0000-26']) {
        await find(page, plate);
        await hasText(page.getByRole('status'), 'no vehicle of the work pack has that plate');
        await page.getByRole('link', { name: `Record an inspection of ${plate} anyway` }).click();
        await heading(page, 'Inspect a vehicle not on this phone').waitFor();
        expect(await page.getByLabel('Registration number').inputValue()).toBe(plate);
        await tickEveryItem(page);
        await page.getByRole('button', { name: 'Save the inspection' }).click();
        await hasText(page.locator('.alert.warn[role=status]'), `the inspection of ${plate} is matched`);
      }
      await hasText(page.locator('header'), '2 inspections waiting for their plates');
      await expectAccessible(page, 'inspections waiting for their plates');

      await context.setOffline(false);
      await eventually(async () => (await vehicle('GR 7777-26')).inspected, 'GR 7777-26 inspected once matched');
      await hasText(page.locator('header'), '1 inspection of an unknown plate needs you');
      await page.getByRole('link', { name: '1 inspection of an unknown plate needs you' }).click();
      await heading(page, 'Inspections waiting for their plates').waitFor();
      await hasText(page.locator('main'), 'No vehicle of your assembly has the plate ZZ 0000-26');
      await expectAccessible(page, 'an unknown plate');
      // Kept on the phone, across a reload, until the inspector deals with it: corrected to a real plate, it is sent.
      await page.reload();
      await hasText(page.locator('main'), 'No vehicle of your assembly has the plate ZZ 0000-26');
      const before = await vehicle('AS 3303-22');
      await page.getByLabel('Registration number').fill('as3303-22');
      await page.getByRole('button', { name: 'Match again' }).click();
      await hasText(page.locator('main'), 'No inspection is waiting for its plate.');
      await eventually(async () => (await vehicle('AS 3303-22')).__v === before.__v + 1, 'AS 3303-22 inspected');
      // The service has it; the page drops it from its outbox once the answer reached it (later, under load).
      await eventually(
        async () => (await page.locator('header .outbox').allTextContents()).join('') === '',
        'nothing waiting on the phone',
      );
    } finally {
      await context.close();
    }
  });

  it('offers the pack to inspectors only: an approver has none and is not asked for one', async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/vehicles/work-pack')) asked.push(request.url());
    });
    try {
      await page.goto(url);
      await signIn(page, running.demo.approver, running.demo.password);
      await page.goto(`${url}#/find`);
      await heading(page, 'Find a record').waitFor();
      await visible(page.getByLabel('Plate, VIN, name, phone, email or licence'));
      expect(await page.locator('.pack-age').count()).toBe(0);
      expect(asked).toEqual([]);
      expect(await stored(page)).toEqual({ pack: null, key: null });
    } finally {
      await context.close();
    }
  });
});
