// Opens an audit report in headless Chromium (playwright-core, as the
// VS Code end-to-end test drives it), reads what the page shows, and
// takes a screenshot. Run by TestAuditHTMLInChromium.
const { chromium } = require('playwright-core');

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  const requests = [];
  page.on('request', (r) => { if (!r.url().startsWith('file://')) requests.push(r.url()); });
  await page.goto('file://' + process.env.REPORT);
  const seen = await page.evaluate(() => {
    const color = (sel) => { const el = document.querySelector(sel); return el ? getComputedStyle(el).backgroundColor : ''; };
    const box = (sel) => { const el = document.querySelector(sel); if (!el) return null; const r = el.getBoundingClientRect(); return { w: r.width, h: r.height }; };
    return {
      title: document.title,
      sessions: document.querySelectorAll('.session').length,
      blocked: document.querySelectorAll('.timeline .stop.block').length,
      passed: document.querySelectorAll('.timeline .stop.pass').length,
      rules: [...document.querySelectorAll('#rules tbody tr td:first-child')].map((td) => td.textContent.trim()),
      blockColor: color('.timeline .stop.block'),
      passColor: color('.timeline .stop.pass'),
      mark: box('.timeline .stop'),
    };
  });
  seen.requests = requests;
  await page.screenshot({ path: process.env.SHOT, fullPage: true });
  await browser.close();
  console.log(JSON.stringify(seen));
})().catch((err) => { console.error(err); process.exit(1); });
