// Prints how long the assembly dashboard takes to become usable on a first load (empty cache) over a throttled
// "fast 3G" network with the CPU slowed 4x, as Chrome DevTools' presets define them, measured in Debian's Chromium
// through the Chrome DevTools Protocol.
//
//   node tools/dashboard-first-load.mjs [dashboard URL] [runs]
//
// The URL defaults to http://localhost:3000/dashboard/ (a running `npm start`). "Usable" is the moment the first
// screen's heading is on the page (the sign-in form, or the work queues when a session cookie is present); the
// navigation timings and the bytes transferred are printed beside it, one JSON line per run, then the median.
import { chromium } from 'playwright-core';

const url = process.argv[2] ?? 'http://localhost:3000/dashboard/';
const runs = Number(process.argv[3] ?? 3);
// DevTools' "Fast 3G" (562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up: its preset, 90% of the nominal 1.6 Mbit/s
// and 750 kbit/s) and "4x slowdown" of the CPU.
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
};
const CPU_SLOWDOWN = 4;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const results = [];
try {
  for (let run = 0; run < runs; run++) {
    // A new context each time: an empty cache and no cookies, as a first visit.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    let bytes = 0;
    cdp.on('Network.loadingFinished', (event) => (bytes += event.encodedDataLength));
    const started = Date.now();
    await page.goto(url, { waitUntil: 'commit' });
    await page.locator('main h1').first().waitFor({ state: 'visible', timeout: 60_000 });
    const usableMs = Date.now() - started;
    await page.waitForLoadState('load');
    const timing = await page.evaluate(() => {
      const [nav] = performance.getEntriesByType('navigation');
      return { domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd), loadMs: Math.round(nav.loadEventEnd) };
    });
    const result = { run: run + 1, usableMs, ...timing, transferredKB: Math.round(bytes / 102.4) / 10 };
    console.log(JSON.stringify(result));
    results.push(result);
    await context.close();
  }
} finally {
  await browser.close();
}
const median = results.map((r) => r.usableMs).sort((a, b) => a - b)[Math.floor(results.length / 2)];
console.log(
  JSON.stringify({
    profile: 'fast 3G, 4x CPU slowdown, empty cache',
    url,
    runs,
    medianUsableMs: median,
    targetMs: 3000,
  }),
);
