import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  eventually,
  expectAccessible,
  hasText,
  launch,
  SHOTS,
  SIZES,
  startDemo,
  tickEveryItem,
  visible,
  type Demo,
  type Keys,
  type Running,
} from './support/demo';

// The assembly dashboard in a real browser (Debian's Chromium driven by playwright-core), against the built API on a
// scratch PostgreSQL database with the demo data, as `npm start` serves it: at a desk and on a phone, by mouse and by
// keyboard alone, with an axe-core scan of every screen. The screenshots land in dist/artefacts/screenshots, or in
// docs/screenshots (docs/dashboard.md's) with UPDATE_SCREENSHOTS=1.

describe.each(SIZES)('the assembly dashboard at $name size', (size) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let running: Running;
  let url: string;
  let demo: Demo;
  const problems: string[] = [];

  const shot = async (screen: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${size.name}-${screen}.png`), fullPage: size.name === 'desktop' });
  };
  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  /** Opens a work queue from its tab, and waits until the queue's own list is shown. */
  const openQueue = async (name: string) => {
    await page.getByRole('link', { name: new RegExp(name) }).click();
    await page.getByRole('heading', { level: 2, name }).waitFor();
  };
  /** A vehicle's id, through the API as the signed-in user (the session cookie goes with page.request). */
  const vehicleId = async (plate: string) => {
    const answer = await page.request.get(
      new URL(`/vehicles/all?registrationNumber=${encodeURIComponent(plate)}`, url).toString(),
    );
    return ((await answer.json()) as Array<{ _id: string }>)[0]._id;
  };

  async function signIn(email: string): Promise<void> {
    await heading('Sign in').waitFor();
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(demo.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Work queues').waitFor();
  }

  /**
   * On a phone a vehicle's tasks are one per screen, listed on its page: opens the task (at a desk every task is on the
   * vehicle's page already). `History` is a task there too.
   */
  const task = async (label: string) => {
    if (size.name !== 'phone') return;
    await vehiclePage();
    await page.getByRole('navigation', { name: 'What to do' }).getByRole('link', { name: label, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: label, exact: true }).waitFor();
    // One task on the screen, and a screen not much taller than the phone's.
    expect(await page.locator('main form').count()).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2 * 844);
  };
  /** Back to the vehicle's page (its details) from one of its tasks, on a phone. */
  const vehiclePage = async () => {
    const back = page.getByRole('link', { name: /^Back to vehicle / });
    if (size.name === 'phone' && (await back.count()) > 0) await back.click();
    await page.locator('.facts').waitFor();
    // On a phone the vehicle's page is its details and a list of tasks: no form, about one screen tall (it was 2,886 px
    // with four forms).
    if (size.name === 'phone') {
      expect(await page.locator('main form').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2 * 844);
    }
  };

  async function signOut(): Promise<void> {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Sign in').waitFor();
    await page.getByText('You are signed out.').waitFor();
  }

  beforeAll(async () => {
    running = await startDemo(`dashboard_e2e_${size.name}`);
    ({ url, demo } = running);
    browser = await launch();
    context = await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile, acceptDownloads: true });
    page = await context.newPage();
    // Script errors and Content-Security-Policy refusals would be the dashboard's bugs; the API's 4xx answers are not
    // (the refusals the tests provoke, and the 401 by which the page learns nobody is signed in).
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource: .* status of 4\d\d/.test(message.text()))
        problems.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('signs an inspector in, who records an inspection from the queue, and signs out', async () => {
    await page.goto(url);
    await heading('Sign in').waitFor();
    // The scan finds what it should: an image without a text alternative, planted and removed.
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.id = 'planted';
      img.src = 'data:,';
      document.body.append(img);
    });
    await expect(expectAccessible(page, 'planted')).rejects.toThrow(/image-alt \(critical\)/);
    await page.evaluate(() => document.getElementById('planted')?.remove());
    await expectAccessible(page, 'sign-in');
    await shot('sign-in');

    // A wrong password is refused in words, and nobody is signed in.
    await page.getByLabel('Email address').fill(demo.inspector);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The email or password is not right').waitFor();

    await signIn(demo.inspector);
    await visible(page.getByText('Abena Mensah · Inspector'));
    const inspection = page.getByRole('link', { name: /Vehicles awaiting inspection/ });
    expect(await inspection.getAttribute('aria-current')).toBe('page');
    await hasText(inspection, '1 waiting');
    await expectAccessible(page, 'queues');
    await shot('queues');

    await page.getByRole('link', { name: 'GR 1001-24' }).click();
    await heading('Vehicle GR 1001-24').waitFor();
    await visible(page.getByText('Not inspected', { exact: true }));
    // An inspector records inspections; approving is not offered to them.
    expect(await page.getByRole('button', { name: 'Approve the vehicle' }).count()).toBe(0);
    await task('Record an inspection');
    await tickEveryItem(page);
    await page.getByRole('button', { name: 'Record the inspection' }).click();
    await page.getByRole('status').getByText('The inspection is recorded.').waitFor();
    await visible(page.getByText('Inspected', { exact: true }));
    await expectAccessible(page, 'inspection');
    await vehiclePage();
    await expectAccessible(page, 'vehicle');
    await shot('vehicle');
    await task('History');
    await page.getByText('Inspection recorded').waitFor();

    await page.getByRole('link', { name: 'Work queues' }).click();
    await hasText(page.getByRole('link', { name: /Vehicles awaiting inspection/ }), '0 waiting');
    await visible(page.getByText('Nothing is waiting here.'));
    await signOut();
  });

  it('signs an approver in, who approves the inspected vehicle and finds the failed one apart', async () => {
    await signIn(demo.approver);
    await openQueue('Vehicles awaiting approval');
    // The two that passed every item; the one that failed waits in its own list.
    await hasText(page.getByRole('link', { name: /Vehicles awaiting approval/ }), '2 waiting');
    await page.getByRole('link', { name: 'GR 1001-24' }).click();
    await heading('Vehicle GR 1001-24').waitFor();
    // The history names who did what, in words.
    await task('History');
    await hasText(page.locator('.history'), 'Inspection recorded');
    await hasText(page.locator('.history'), 'by Abena Mensah');
    await task('Approval');
    await page.getByRole('button', { name: 'Approve the vehicle' }).click();
    await page.getByRole('status').getByText('The vehicle is approved.').waitFor();
    await visible(page.getByText('Approved', { exact: true }));
    await task('History');
    await hasText(page.locator('.history'), 'by you');

    // The vehicle that failed its inspection: in its own list, with what failed, and no approval offered.
    await page.getByRole('link', { name: 'Work queues' }).click();
    await openQueue('Vehicles awaiting approval');
    await hasText(page.getByRole('link', { name: /Vehicles awaiting approval/ }), '1 waiting');
    await openQueue('Failed inspection');
    await page.getByLabel('Registration number').fill('gw 2202-23');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'GW 2202-23' }).click();
    await heading('Vehicle GW 2202-23').waitFor();
    await task('Approval');
    // In words: the checklist item as people call it, not its field name.
    await hasText(page.locator('.alert.warn'), 'The last inspection failed on: Spare tyre');
    expect(await page.getByRole('button', { name: 'Approve the vehicle' }).count()).toBe(0);
    await visible(page.getByText('Not approved', { exact: true }));
    await expectAccessible(page, 'failed');
    await shot('failed');
  });

  it('approves a driver with the checklist, after the domain refuses an incomplete one', async () => {
    await page.getByRole('link', { name: 'Work queues' }).click();
    await openQueue('Drivers awaiting approval');
    const first = page.locator('.cards a').first();
    const name = (await first.textContent()) ?? '';
    await first.click();
    await heading(`Driver ${name}`).waitFor();
    await page.getByLabel('Holds a valid driving licence').check();
    await page.getByRole('button', { name: 'Approve the driver' }).click();
    await hasText(page.getByRole('alert'), 'That did not work');
    await visible(page.getByText('Not approved', { exact: true }));
    for (const check of ['Has a smartphone', 'Can use a map app', 'Criminal record checked and clear'])
      await page.getByLabel(check).check();
    await page.getByRole('button', { name: 'Approve the driver' }).click();
    await page
      .getByRole('status')
      .getByText('The driver is approved.')
      .waitFor({ timeout: 5000 })
      .catch(async (e) => {
        await page.screenshot({ path: '/tmp/driver-fail.png', fullPage: true });
        throw e;
      });
    await visible(page.getByText('Approved', { exact: true }));
    // Approved, the driver can now be revoked (with a reason), not approved again.
    await visible(page.getByRole('button', { name: 'Revoke the approval' }));
    await expectAccessible(page, 'driver');
    await shot('driver');
    await page.getByLabel('Reason').fill('Licence found forged at the roadside check');
    await page.getByRole('button', { name: 'Revoke the approval' }).click();
    await page.getByRole('status').getByText('The approval is revoked.').waitFor();
    await visible(page.getByText('Not approved', { exact: true }));
    await hasText(page.locator('.history'), 'Approval revoked');
  });

  it('records a renewal, a correction and a link on a vehicle, each read back in its history', async () => {
    await page.getByRole('link', { name: 'Work queues' }).click();
    await openQueue('Vehicles awaiting approval');
    await page.getByLabel('Registration number').fill('GR 1001-24');
    await page.getByRole('button', { name: 'Search' }).click();
    // Approved now, it left the queue.
    await visible(page.getByText('No record matches that search in this queue.'));
    await page.goto(`${url}#/vehicles/${await vehicleId('GR 1001-24')}`);
    await heading('Vehicle GR 1001-24').waitFor();

    await task('Record renewed documents');
    await page.getByLabel('Insurance ends').fill('2031-05-31');
    await page.getByRole('button', { name: 'Record the renewal' }).click();
    await page.getByRole('status').getByText('The renewal is recorded.').waitFor();
    await vehiclePage();
    await hasText(page.locator('.facts'), '31 May 2031');
    await task('History');
    await hasText(page.locator('.history'), 'Insurance renewed');

    await task('Correct the record');
    await page.getByLabel('Colour').fill('#FFFFFF');
    await page.getByRole('button', { name: 'Save the correction' }).click();
    await page.getByRole('status').getByText('The record is corrected.').waitFor();
    await task('History');
    await hasText(page.locator('.history'), 'Changed: color');

    await task('Driver, station and union');
    await page.getByLabel('Station', { exact: true }).selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Save the links' }).click();
    await page.getByRole('status').getByText('The links are saved.').waitFor();
    await task('History');
    await hasText(page.locator('.history'), 'Station linked');

    // A date the domain refuses (not later than the current one): its words, and nothing recorded.
    await task('Record renewed documents');
    await page.getByLabel('Insurance ends').fill('2030-01-01');
    await page.getByRole('button', { name: 'Record the renewal' }).click();
    await hasText(page.getByRole('alert'), 'Insurance ends: the new date must be later than the one recorded now');
    await expectAccessible(page, 'refusal');
    await shot('refusal');
    await vehiclePage();
    await hasText(page.locator('.facts'), '31 May 2031');
  });

  it('lists expired and expiring documents and downloads them as CSV', async () => {
    await page.getByRole('link', { name: 'Compliance' }).click();
    await heading('Compliance').waitFor();
    await page.locator('.cards').waitFor();
    await hasText(page.locator('.cards'), 'Insurance ends soon');
    await expectAccessible(page, 'compliance');
    await shot('compliance');
    const listed = await page.locator('.cards a.card-title').allTextContents();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the list (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('compliance-within-30-days.csv');
    const csv = readFileSync((await download.path()) as string, 'utf8');
    const [header, ...rows] = csv.trim().split('\r\n');
    expect(header.split(',').slice(0, 2)).toEqual(['vehicle._id', 'vehicle.registrationNumber']);
    expect(rows).toHaveLength(listed.length);
    for (const plate of listed) expect(csv).toContain(plate);
  });

  it('signs out, after which the session no longer works', async () => {
    await signOut();
    const answer = await page.request.get(new URL('/auth/session', url).toString());
    expect(answer.status()).toBe(401);
    await page.goto(`${url}#/compliance`);
    await heading('Sign in').waitFor();
    expect(problems).toEqual([]);
  });
});

describe('the assembly dashboard by keyboard alone, and with a long queue', () => {
  let browser: Browser;
  let page: Page;
  let running: Running;
  let url: string;
  let demo: Demo;
  let keys: Keys;

  beforeAll(async () => {
    running = await startDemo('dashboard_e2e_keyboard');
    ({ url, demo, keys } = running);
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  /** Presses Tab until the element has the focus, as a keyboard user would (at most 40 presses). */
  async function tabTo(target: Locator): Promise<void> {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await target.evaluate((el) => el === document.activeElement)) return;
    }
    throw new Error(`Tab never reached ${target.toString()}`);
  }

  it('signs in, opens a queued vehicle, records a failed inspection and reads it back, without a mouse', async () => {
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await tabTo(page.getByLabel('Email address'));
    await page.keyboard.type(demo.inspector);
    await page.keyboard.press('Tab');
    await page.keyboard.type(demo.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Work queues' }).waitFor();
    // Each screen's heading takes the focus, so the next Tab starts from the top of the content. It does so up to a
    // frame after the screen shows (100 ms when frames come late): waited for, not read at once (read at once, it was
    // still the page's body once in a CI run where the API's tests ran beside these).
    await eventually(
      async () => (await page.evaluate(() => document.activeElement?.tagName)) === 'H1',
      "the screen's heading has the focus",
      5_000,
    );

    await tabTo(page.getByRole('link', { name: 'GR 1001-24' }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Vehicle GR 1001-24' }).waitFor();
    // Tick every item but the brakes with the space bar, then submit with Enter on the button.
    await tabTo(page.getByLabel('Spare tyre'));
    for (let item = 0; item < 10; item++) {
      const name = await page.evaluate(() => (document.activeElement as HTMLInputElement).name);
      if (name !== 'brakes') await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
    }
    // Past the folded notes on failed items, the button.
    await tabTo(page.getByRole('button', { name: 'Record the inspection' }));
    await page.keyboard.press('Enter');
    await hasText(page.getByRole('status'), 'The inspection is recorded: the vehicle failed on Brakes.');
    // The focus stays on the button that saved: no jump to the top.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Record the inspection');
    await hasText(page.locator('.facts'), 'Brakes');
    await hasText(page.locator('.history'), 'Inspection recorded');
  });

  it('pages through a queue longer than a page, with its count, and finds one record by search', async () => {
    // 21 more vehicles registered by a machine (the approver's demo key), so the queue holds 21 (the one above is done).
    const api = (path: string, init: RequestInit = {}) =>
      fetch(new URL(path, url), {
        ...init,
        headers: { Authorization: keys.assembly, 'Content-Type': 'application/json' },
      });
    const owners = (await (await api('/vehicles/owner/all?limit=1')).json()) as Array<{ _id: string }>;
    for (let i = 0; i < 21; i++) {
      const plate = `GP ${5000 + i}-26`;
      const added = await api('/vehicles/add', {
        method: 'POST',
        body: JSON.stringify({ ownerID: owners[0]._id, registrationNumber: plate, make: 'Toyota', model: 'Vitz' }),
      });
      expect(added.status).toBe(201);
    }
    await page.getByRole('link', { name: 'Work queues' }).click();
    const tab = page.getByRole('link', { name: /Vehicles awaiting inspection/ });
    await hasText(tab, '21 waiting');
    await eventually(async () => (await page.locator('.cards > li').count()) === 20, '20 cards on page 1');
    await hasText(page.locator('.pager'), 'Page 1');
    await page.getByRole('link', { name: 'Next page' }).click();
    await hasText(page.locator('.pager'), 'Page 2');
    await eventually(async () => (await page.locator('.cards > li').count()) === 1, '1 card on page 2');
    // The oldest is last: the first one registered.
    await hasText(page.locator('.cards'), 'GP 5000-26');
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
    await page.getByRole('link', { name: 'First page' }).click();
    await eventually(async () => (await page.locator('.cards > li').count()) === 20, '20 cards on page 1 again');

    await page.getByRole('heading', { level: 2, name: 'Vehicles awaiting inspection' }).waitFor();
    await page.getByLabel('Registration number').fill('gp 5010-26');
    await page.keyboard.press('Enter');
    await eventually(async () => (await page.locator('.cards > li').count()) === 1, 'one search result');
    await hasText(page.locator('.cards'), 'GP 5010-26');
  });
});
