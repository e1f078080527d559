import type { Browser, Route } from 'playwright-core';
import { launch, startDemo, type Running } from './support/demo';

// Issue 43, item 10: on a signal that answers slowly ("lie-fi") the dashboard took 16 s to open, against 0.66 s fully
// offline: the service worker asked the network for the page first and waited. The shell now comes from the cache
// first, always (the worker refreshes it in the background), and the sign-in form needs no answer of the service to
// show. The test delays every answer (held, then let through: delayed, not dropped) and checks, by condition, that
// the sign-in form can be typed in while the network request for the shell is still unanswered. Chromium at 390x844.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };

describe('the dashboard opens on lie-fi (issue 43, item 10)', () => {
  let browser: Browser;
  let running: Running;
  let url: string;
  const problems: string[] = [];

  beforeAll(async () => {
    running = await startDemo('dashboard_lie_fi');
    url = running.url;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('shows a usable sign-in form from the cache while the network request for the shell is still pending', async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    try {
      // One online visit: the service worker keeps the shell.
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

      // Lie-fi: every request reaching the network is held, unanswered, until the test lets it through.
      const held: Route[] = [];
      const shell = new URL(url).pathname;
      await context.route('**/*', (route) => void held.push(route));
      const reloaded = page.reload().catch(() => undefined);

      const email = page.getByLabel('Email address');
      await email.waitFor({ state: 'visible', timeout: 20_000 });
      await email.fill('inspector@example.com');
      expect(await email.inputValue()).toBe('inspector@example.com');
      expect(await page.getByLabel('Password', { exact: true }).isEditable()).toBe(true);
      // The shell was asked of the network (the worker's refresh in the background) and is still unanswered.
      const pending = held.map((route) => new URL(route.request().url()).pathname);
      expect(pending).toContain(shell);

      // The answers arrive late, not never: nothing breaks when they do.
      await context.unroute('**/*');
      for (const route of held.splice(0)) await route.continue().catch(() => undefined);
      await reloaded;
      expect(await email.inputValue()).toBe('inspector@example.com');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
