import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { passedDriverChecklist } from '@transport/domain/testing';
import {
  eventually,
  expectAccessible,
  hasText,
  launch,
  SHOTS,
  signIn,
  SIZES,
  startDemo,
  type Running,
} from './support/demo';

// The lists at the roadside (issue "The dashboard at the roadside"): the vehicles and drivers lists sorted by the API
// across every page, the order and filters kept in the address, documents and licences ending within a window, and
// the drivers list by state: a table at a desk, cards on a phone. In Chromium against the built service with the demo
// data (apps/api/src/persistence/demo-seed.ts) and records added through the API, at both sizes, axe on every screen.

const DAY = 86_400_000;
const isoDay = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const yaa = (n: number) => `Yaa Asantewaa ${String(n).padStart(2, '0')}`;

describe.each(SIZES)('the vehicles and drivers lists at $name size', (size) => {
  let browser: Browser;
  let running: Running;
  let page: Page;
  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const count = () => page.getByRole('heading', { level: 2 });
  /** The titles of the rows shown: the table's row headers at a desk, the cards' titles on a phone. */
  const titles = async () =>
    (
      await page
        .locator(size.name === 'phone' ? 'main .cards .card-title' : 'main table.list tbody th')
        .allTextContents()
    ).map((t) => t.trim());
  const shows = (expected: string[], what: string) =>
    eventually(async () => (await titles()).join() === expected.join(), `${what}: ${expected.join()}`);
  const startsWith = (expected: string[], what: string) =>
    eventually(async () => (await titles()).slice(0, expected.length).join() === expected.join(), what);
  /** Filters and orders through the form (at both sizes), then shows the list. */
  const choose = async (choices: Record<string, string>) => {
    for (const [label, option] of Object.entries(choices))
      await page.getByLabel(label, { exact: true }).selectOption({ label: option });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
  };
  const shot = async (screen: string) => {
    // Nothing wider than the screen: no sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.viewport.width);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${size.name}-${screen}.png`), fullPage: size.name === 'desktop' });
  };
  /** As the demo's approver; `as: 'admin'` as the national admin (who registers the drivers the approver approves). */
  const api = async (path: string, body?: unknown, as: 'assembly' | 'admin' = 'assembly') => {
    const answer = await fetch(new URL(path, running.url), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: running.keys[as], 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(answer.status).toBeLessThan(300);
    return answer.json() as Promise<{ _id: string; payload?: { _id: string } }>;
  };

  beforeAll(async () => {
    running = await startDemo(`dashboard_lists_${size.name}`);
    // 21 vehicles without documents, registered after the demo's six, and 20 drivers: more than a page of each.
    const [owner] = (await api('/vehicles/owner/all?limit=1')) as unknown as Array<{ _id: string }>;
    for (let i = 0; i < 21; i++)
      await api('/vehicles/add', { ownerID: owner._id, registrationNumber: `GP ${5000 + i}-26`, make: 'Toyota' });
    const drivers: string[] = [];
    // Registered by the national admin into the approver's assembly: whoever types a driver's contact in may not
    // approve the driver (separation of duties), and the approver approves one of them below.
    const [{ assembly }] = (await api('/assembly/users?limit=1')) as unknown as Array<{ assembly: string }>;
    for (let n = 1; n <= 20; n++) {
      const registered = await api(
        '/drivers/add',
        {
          name: yaa(n),
          phone: `02440${String(n).padStart(5, '0')}`,
          email: `yaa${n}@example.com`,
          license: `DL-Y${n}`,
          licenseClass: 'B',
          licenseIssueDate: isoDay(-700),
          // Number 3's licence ends in five days; number 4's ended yesterday.
          licenseExpiry: n === 3 ? isoDay(5) : n === 4 ? isoDay(-1) : isoDay(700),
          idType: 'ghana_card',
          idNumber: `GHA-Y${n}`,
          gender: 'female',
          assembly,
        },
        'admin',
      );
      drivers.push(registered.payload?._id ?? '');
    }
    await api(`/drivers/${drivers[4]}/approve`, {
      approvalChecklist: passedDriverChecklist,
    });
    // The demo's approved driver loses the approval.
    const all = (await api('/drivers/all?limit=100')) as unknown as { payload: Array<{ _id: string; name: string }> };
    const kojo = all.payload.find((d) => d.name === 'Kojo Antwi');
    await api(`/drivers/${kojo?._id}/revoke`, { reason: 'Repeated passenger complaints' });

    browser = await launch();
    page = await (await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile })).newPage();
    await page.goto(running.url);
    await signIn(page, running.demo.approver, running.demo.password);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('sorts the whole vehicles list through the API, page after page, and keeps the order in the address', async () => {
    await page.getByRole('link', { name: 'Vehicles', exact: true }).click();
    await heading('Vehicles').waitFor();
    await hasText(count(), '27 vehicles');
    // Newest first: the 21 new ones, then five of the demo's; the oldest demo vehicle is on page 2.
    await startsWith(['GP 5020-26', 'GP 5019-26'], 'newest first');
    const byPlate = ['AS 3303-22', 'GE 5505-20', 'GN 6606-19', ...[...Array(17)].map((_, i) => `GP ${5000 + i}-26`)];
    if (size.name === 'desktop') {
      await page.getByRole('button', { name: 'Sort the whole list by registration number' }).click();
      await shows(byPlate, 'page 1 by plate');
      expect(await page.locator('th[aria-sort=ascending]').textContent()).toBe('Registration number');
    } else {
      await choose({ Order: 'Plate, A to Z' });
      await shows(byPlate, 'page 1 by plate');
    }
    expect(page.url()).toContain('sort=registrationNumber');
    await page.getByRole('link', { name: 'Next page' }).click();
    await hasText(page.locator('.pager'), 'Page 2');
    await hasText(count(), '27 vehicles');
    // The rest of the whole list in plate order, not page 2 of the newest-first list sorted.
    await shows(
      ['GP 5017-26', 'GP 5018-26', 'GP 5019-26', 'GP 5020-26', 'GR 1001-24', 'GT 4404-21', 'GW 2202-23'],
      'page 2 by plate',
    );
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
    // The address holds the list: a reload shows the same page in the same order.
    await page.reload();
    await shows(
      ['GP 5017-26', 'GP 5018-26', 'GP 5019-26', 'GP 5020-26', 'GR 1001-24', 'GT 4404-21', 'GW 2202-23'],
      'page 2 after a reload',
    );
    expect(await page.getByLabel('Order', { exact: true }).inputValue()).toBe('registrationNumber');
    await expectAccessible(page, 'vehicles by plate, page 2');

    if (size.name === 'desktop')
      await page.getByRole('button', { name: 'Sort the whole list by registration number' }).click();
    else await choose({ Order: 'Plate, Z to A' });
    await startsWith(['GW 2202-23', 'GT 4404-21', 'GR 1001-24', 'GP 5020-26'], 'Z to A from the first page');
    await hasText(page.locator('.pager'), 'Page 1');
    if (size.name === 'desktop')
      expect(await page.locator('th[aria-sort=descending]').textContent()).toBe('Registration number');
    expect(page.url()).toContain('sort=-registrationNumber');
  });

  it('narrows the vehicles to documents ending within a window, ended ones included, in the order chosen', async () => {
    await choose({ 'Documents ending': 'Within 7 days, or ended', Order: 'Plate, A to Z' });
    // GN 6606-19's roadworthy certificate ended five days ago.
    await shows(['GN 6606-19'], 'within 7 days');
    await hasText(count(), '1 vehicle');
    await hasText(page.locator('main section'), '(ended)');
    expect(page.url()).toContain('expiring=7');
    await choose({ 'Documents ending': 'Within 30 days, or ended' });
    // GT 4404-21's insurance ends in 10 days, AS 3303-22's roadworthy certificate in 20.
    await shows(['AS 3303-22', 'GN 6606-19', 'GT 4404-21'], 'within 30 days, by plate');
    await choose({ State: 'Approved' });
    await shows(['GN 6606-19', 'GT 4404-21'], 'approved, within 30 days');
    await expectAccessible(page, 'vehicles ending within 30 days');
    await page.getByRole('link', { name: 'Clear the filters' }).click();
    await hasText(count(), '27 vehicles');
    // The order outlives the filters.
    await startsWith(['AS 3303-22', 'GE 5505-20'], 'still by plate');
  });

  it('lists the drivers by state, licence end and name, across pages: a table at a desk, cards on a phone', async () => {
    await page.getByRole('link', { name: 'Drivers', exact: true }).click();
    await heading('Drivers').waitFor();
    await hasText(count(), '23 drivers');
    expect(await page.locator('main table').count()).toBe(size.name === 'phone' ? 0 : 1);
    await startsWith([yaa(20), yaa(19)], 'newest first');

    const byName = ['Esi Quaye', 'Fiifi Mensah', 'Kojo Antwi', ...[...Array(17)].map((_, i) => yaa(i + 1))];
    if (size.name === 'desktop') await page.getByRole('button', { name: 'Sort the whole list by name' }).click();
    else await choose({ Order: 'Name, A to Z' });
    await shows(byName, 'page 1 by name');
    await page.getByRole('link', { name: 'Next page' }).click();
    await shows([yaa(18), yaa(19), yaa(20)], 'page 2 by name');
    await page.getByRole('link', { name: 'First page' }).click();
    await shows(byName, 'back to page 1');
    await choose({ Order: 'Name, Z to A' });
    await startsWith([yaa(20), yaa(19)], 'Z to A');
    await page.getByRole('link', { name: 'Next page' }).click();
    await shows(['Kojo Antwi', 'Fiifi Mensah', 'Esi Quaye'], 'page 2, Z to A');

    await choose({ State: 'Approval withdrawn' });
    await shows(['Kojo Antwi'], 'revoked');
    await hasText(page.locator('main section'), 'Approval withdrawn');
    await choose({ State: 'Approved' });
    await shows([yaa(5)], 'approved');
    await choose({ State: 'Awaiting approval', Order: 'Name, A to Z' });
    await hasText(count(), '21 drivers');
    await startsWith(['Esi Quaye', 'Fiifi Mensah', yaa(1)], 'awaiting, by name');
    await choose({ State: 'Any', 'Licence ending': 'Within 7 days, or ended' });
    await shows([yaa(3), yaa(4)], 'licences ending within 7 days');
    await hasText(page.locator('main section'), '(ended)');
    expect(page.url()).toMatch(/#\/drivers\?expiring=7&sort=name$/);
    await expectAccessible(page, 'drivers ending within 7 days');

    await page.getByRole('link', { name: 'Clear the filters' }).click();
    await hasText(count(), '23 drivers');
    await expectAccessible(page, 'drivers');
    await shot('drivers');
    await page.getByRole('link', { name: 'Kojo Antwi' }).click();
    await heading('Driver Kojo Antwi').waitFor();
    await page.goBack();
    await heading('Drivers').waitFor();
    await shows(byName, 'the same list after Back');
  });
});
