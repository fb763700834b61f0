// Drives code-server in headless Chromium (playwright-core) against the baton
// extension. Run by e2e/vscode_test.go with:
//   CS_URL     code-server URL with ?folder= set to the workspace
//   OUT_DIR    where screenshots and the report go
//   CHROMIUM   the browser (default /usr/bin/chromium)
//   PROFILE    a fresh browser profile folder
// Each step waits for what it needs with a timeout (a hang guard, never an
// assertion by delay). Exit status 0 when every check passed.
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const CS_URL = process.env.CS_URL;
const OUT = process.env.OUT_DIR;
const STEP = 60000; // per-step hang guard
const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const MARKER = '<!-- SPECREW-STOP-INTENT: continue -->';
const FIX = 'Insert the continue stop-intent marker';

async function main(page) {
  log('goto', CS_URL);
  await page.goto(CS_URL, { waitUntil: 'domcontentloaded', timeout: STEP });
  await page.locator('.monaco-workbench').waitFor({ timeout: STEP });
  log('workbench loaded');

  const quickInput = page.locator('.quick-input-widget');

  // editorState reads the editor of the active group: the top-level Monaco
  // editor that is laid out (nested editors such as a peek view, and editors
  // kept hidden for other tabs, are skipped), the text it shows (Monaco renders
  // spaces as U+00A0) and, for a failure message, what the workbench shows.
  const editorState = () =>
    page.evaluate(() => {
      const group = document.querySelector('.editor-group-container.active');
      const tabs = [...document.querySelectorAll('.editor-group-container .tab')].map(
        (t) => (t.classList.contains('active') ? '*' : '') + t.innerText.trim());
      const seen = {
        groups: document.querySelectorAll('.editor-group-container').length,
        tabs,
        focus: document.activeElement ? document.activeElement.className.toString().slice(0, 80) : '',
      };
      if (!group) return { text: '', seen: { ...seen, why: 'no active editor group' } };
      const editors = [...group.querySelectorAll('.monaco-editor')].filter(
        (e) => !e.parentElement.closest('.monaco-editor'));
      seen.editors = editors.map((e) => `${e.offsetWidth}x${e.offsetHeight}`);
      const shown = editors.find((e) => e.offsetWidth > 0 && e.offsetHeight > 0);
      if (!shown) return { text: '', seen: { ...seen, why: 'no editor laid out in the active group' } };
      const lines = [...shown.querySelectorAll('.view-lines')].find(
        (l) => l.closest('.monaco-editor') === shown);
      if (!lines) return { text: '', seen: { ...seen, why: 'the editor has no lines' } };
      return { text: lines.innerText.replace(/\u00a0/g, ' '), seen };
    });
  const editorText = async () => (await editorState()).text;
  const waitEditorText = async (want, timeout = STEP) => {
    const end = Date.now() + timeout;
    let last = { text: '', seen: {} };
    while (Date.now() < end) {
      last = await editorState().catch((e) => ({ text: '', seen: { why: e.message.slice(0, 200) } }));
      if (last.text.includes(want)) return;
      await page.waitForTimeout(100);
    }
    throw new Error(`the editor never showed ${JSON.stringify(want)}; the workbench shows ` +
      `${JSON.stringify(last.seen)} and the editor:\n${last.text}`);
  };

  const command = async (label) => {
    await page.keyboard.press('F1');
    const input = quickInput.locator('input');
    await input.waitFor({ state: 'visible', timeout: STEP });
    await input.fill('>' + label);
    await quickInput.locator('.monaco-list-row', { hasText: label }).first().waitFor({ timeout: STEP });
    await page.keyboard.press('Enter');
    await quickInput.waitFor({ state: 'hidden', timeout: STEP });
  };

  const goTo = async (line, col) => {
    await page.keyboard.press('Control+g');
    const input = quickInput.locator('input');
    await input.waitFor({ state: 'visible', timeout: STEP });
    await input.fill(`:${line}:${col}`);
    await page.keyboard.press('Enter');
    await quickInput.waitFor({ state: 'hidden', timeout: STEP });
  };

  // openFile opens name from the explorer and waits until the editor shows
  // the text showing. If the editor stays without it, that is the workbench's
  // doing, not baton's: it is said in the log and the file is opened once more
  // through Quick Open, then the step fails if the text is still not shown.
  const openFile = async (name, showing) => {
    const item = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
    await item.waitFor({ timeout: STEP });
    await item.click();
    const tab = page.locator('.editor-group-container.active .tab.active', { hasText: name });
    await tab.waitFor({ timeout: STEP });
    try {
      await waitEditorText(showing, STEP / 3);
    } catch (e) {
      log('explorer open: ' + e.message.replace(/\n[^]*$/, '') + '; opening it through Quick Open');
      await page.screenshot({ path: path.join(OUT, `open-${name}.png`) }).catch(() => {});
      await page.keyboard.press('Control+p');
      const input = quickInput.locator('input');
      await input.waitFor({ state: 'visible', timeout: STEP });
      await input.fill(name);
      await quickInput.locator('.monaco-list-row', { hasText: name }).first().waitFor({ timeout: STEP });
      await page.keyboard.press('Enter');
      await quickInput.waitFor({ state: 'hidden', timeout: STEP });
      await tab.waitFor({ timeout: STEP });
      await waitEditorText(showing);
    }
    await page.locator('.editor-group-container.active .monaco-editor .view-lines')
      .filter({ visible: true }).first().click(); // focus the text
    log('opened', name);
  };

  // closeHover closes a hover with Escape, and says so in the log if it took
  // a second Escape (a hover that took the focus keeps it through the first).
  const closeHover = async (hover) => {
    await page.keyboard.press('Escape');
    try {
      await hover.waitFor({ state: 'hidden', timeout: STEP / 6 });
    } catch {
      log('the hover stayed open after Escape; pressing it again');
      await page.keyboard.press('Escape');
      await hover.waitFor({ state: 'hidden', timeout: STEP });
    }
  };

  // 1. The Problems panel lists baton's packet/missing-section finding.
  await openFile('missing-why-stopped.md', 'What I Just Did');
  await command('Problems: Focus on Problems View');
  const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'packet/missing-section' }).first();
  await problem.waitFor({ timeout: STEP });
  const rows = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
  log('Problems rows:', JSON.stringify(rows));
  if (!rows.some((r) => /baton/.test(r) && r.includes('packet/missing-section'))) {
    throw new Error('no Problems row names both baton and packet/missing-section');
  }
  fs.writeFileSync(path.join(OUT, 'problems.txt'), rows.join('\n') + '\n');

  // 2. Hovering the stop-intent marker of continue.md shows the outcome.
  await openFile('continue.md', 'SPECREW-STOP-INTENT');
  await goTo(3, 12);
  await command('Show or Focus Hover');
  const intentHover = page.locator('.monaco-hover', { hasText: 'Stop intent:' }).first();
  await intentHover.waitFor({ state: 'visible', timeout: STEP });
  const intentText = await intentHover.innerText();
  log('marker hover:', JSON.stringify(intentText.slice(0, 200)));
  fs.writeFileSync(path.join(OUT, 'hover-marker.txt'), intentText + '\n');
  await page.screenshot({ path: path.join(OUT, 'hover-marker.png') });
  await closeHover(intentHover);

  // 3. The quick fix inserts the continue marker into missing-why-stopped.md.
  await openFile('missing-why-stopped.md', 'What I Just Did');
  await goTo(5, 1);
  await command('Show or Focus Hover');
  const diagHover = page.locator('.monaco-hover', { hasText: 'packet/missing-section' }).first();
  await diagHover.waitFor({ state: 'visible', timeout: STEP });
  await page.screenshot({ path: path.join(OUT, 'hover-diagnostic.png') });
  log('diagnostic hover shown');
  await closeHover(diagHover);

  await page.keyboard.press('Control+.');
  const fixRow = page.locator('.action-widget .monaco-list-row', { hasText: FIX }).first();
  await fixRow.waitFor({ state: 'visible', timeout: STEP });
  const actions = await page.locator('.action-widget .monaco-list-row').allInnerTexts();
  log('code actions:', JSON.stringify(actions));
  await page.screenshot({ path: path.join(OUT, 'quickfix.png') });

  if (await editorText().then((t) => t.includes(MARKER))) {
    throw new Error('the marker is in the buffer before the fix was applied');
  }
  await fixRow.waitFor({ state: 'visible', timeout: STEP });
  await fixRow.click();
  await waitEditorText(MARKER);
  log('quick fix applied: the buffer holds', MARKER);
  await page.screenshot({ path: path.join(OUT, 'after-fix.png') });
}

(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  const ctx = await chromium.launchPersistentContext(process.env.PROFILE, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-dev-shm-usage',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  page.on('pageerror', (e) => log('pageerror:', e.message.slice(0, 200)));
  let ok = false;
  try {
    await main(page);
    ok = true;
  } catch (e) {
    log('FAILED:', e.message);
    await page.screenshot({ path: path.join(OUT, 'failure.png') }).catch(() => {});
  } finally {
    await ctx.close().catch(() => {});
  }
  log(ok ? 'PASS' : 'FAIL');
  process.exit(ok ? 0 : 1);
})();
