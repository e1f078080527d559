// Prints how long the assembly dashboard takes to become usable on a first load (empty cache, no service worker yet)
// over Chromium DevTools' "Slow 3G" and "Fast 3G" networks with the CPU slowed 4x, measured in Debian's Chromium
// through the Chrome DevTools Protocol (Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate).
//
//   npm run first-load -- [dashboard URL] [runs]
//   node tools/dashboard-first-load.mjs [dashboard URL] [runs]   (the same, without the Node check)
//
// The URL defaults to http://localhost:3000/dashboard/ (a running `npm start`). "Usable" is the first frame painted
// with the sign-in form's email field and the stylesheet applied (or, with a session cookie, the first screen's
// heading), noted by the page itself in ms since the navigation started; the field is then checked to be editable. The navigation timings, the requests and the bytes transferred are printed beside it, one JSON line per
// run, then each profile's median against its target.
import { chromium } from 'playwright-core';

const url = process.argv[2] ?? 'http://localhost:3000/dashboard/';
const runs = Number(process.argv[3] ?? 3);
// Chromium's presets (front_end/core/sdk/NetworkManager.ts): a latency added to every request, and throughput in
// bytes a second: Slow 3G 2,000 ms and 400 kbit/s both ways; Fast 3G 562.5 ms, 1.44 Mbit/s down, 675 kbit/s up.
const PROFILES = [
  {
    name: 'slow 3G, 4x CPU slowdown, empty cache',
    targetMs: 5000,
    network: { offline: false, latency: 2000, downloadThroughput: 50_000, uploadThroughput: 50_000 },
  },
  {
    name: 'fast 3G, 4x CPU slowdown, empty cache',
    targetMs: 2000,
    network: { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 },
  },
];
const CPU_SLOWDOWN = 4;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const summary = [];
try {
  for (const profile of PROFILES) {
    const results = [];
    for (let run = 0; run < runs; run++) {
      // A new context each time: an empty cache, no cookies and no service worker, as a first visit.
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', profile.network);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      let bytes = 0;
      const requests = [];
      const asked = new Map();
      cdp.on('Network.requestWillBeSent', (event) => asked.set(event.requestId, event.request.url));
      cdp.on('Network.loadingFinished', (event) => {
        bytes += event.encodedDataLength;
        requests.push(new URL(asked.get(event.requestId) ?? 'about:blank').pathname);
      });
      // Noted in the page itself, not by polling from here (which adds its own delay on a throttled CPU): the first
      // frame painted with the sign-in form's email field (or a signed-in screen's heading) and the stylesheet applied,
      // in ms since the navigation started.
      await page.addInitScript(() => {
        const usable = () => {
          const field = document.querySelector('main input[type=email]:not([disabled])');
          const ready = field ?? document.querySelector('main h1');
          // The dashboard's stylesheet: inline in index.html (apps/dashboard/build.mjs), or a styles-<hash>.css file.
          const styled = [...document.styleSheets].some(
            (sheet) => sheet.ownerNode?.nodeName === 'STYLE' || /styles-/.test(sheet.href ?? ''),
          );
          return ready !== null && styled;
        };
        const observer = new MutationObserver(() => {
          if (!usable()) return;
          observer.disconnect();
          requestAnimationFrame(() => (window.usableAt = performance.now()));
        });
        observer.observe(document, { childList: true, subtree: true, attributes: true });
      });
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(() => window.usableAt !== undefined, null, { timeout: 120_000, polling: 100 });
      const usableMs = Math.round(await page.evaluate(() => window.usableAt));
      const email = page.getByLabel('Email address');
      if ((await email.count()) > 0 && !(await email.isEditable())) throw new Error('the email field is not editable');
      const before = [...requests];
      await page.waitForLoadState('load');
      const timing = await page.evaluate(() => {
        const [nav] = performance.getEntriesByType('navigation');
        return { domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd), loadMs: Math.round(nav.loadEventEnd) };
      });
      const result = {
        profile: profile.name,
        run: run + 1,
        usableMs,
        ...timing,
        transferredKB: Math.round(bytes / 102.4) / 10,
        requestsBeforeUsable: before,
      };
      console.log(JSON.stringify(result));
      results.push(result);
      await context.close();
    }
    const median = results.map((r) => r.usableMs).sort((a, b) => a - b)[Math.floor(results.length / 2)];
    summary.push({ profile: profile.name, url, runs, medianUsableMs: median, targetMs: profile.targetMs });
  }
} finally {
  await browser.close();
}
for (const line of summary) console.log(JSON.stringify(line));
