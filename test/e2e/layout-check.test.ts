/**
 * The walk's layout check (support/layout-check.ts) on a small fixture page
 * in Chromium: the page as laid out well has no problem, and each way of
 * breaking it (an element pushed off screen, a badge drawn over a word, a
 * cell's text spilling into the next cell) is found and named; what a page
 * may do (a wide block scrolling sideways inside its own box, text cut with
 * an ellipsis inside its cell, a modal backdrop over the page when the
 * dialog is the root) is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissingReason, launchChromium } from '../support/browser';
import { pageLayoutProblems } from '../support/layout-check';

const skip = chromiumMissingReason();
if (skip) console.log(`[e2e] skipped "the layout check": ${skip}`);

/** A view with a table, a toolbar and a dialog; `extra` CSS breaks one thing. */
const fixture = (extra = '', html = '') => `<!doctype html><html><head><style>
  body { margin: 0; font: 14px sans-serif; }
  main { padding: 8px; }
  table { border-collapse: collapse; width: 600px; table-layout: fixed; }
  td, th { border: 1px solid #999; padding: 2px; width: 150px; }
  .cut { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .scroller { width: 300px; overflow-x: auto; }
  .scroller pre { width: 2000px; margin: 0; }
  .badge { display: inline-block; background: #eee; }
  .toolbar { display: flex; gap: 8px; }
  ${extra}
</style></head><body><main>
  <div class="toolbar"><button id="one">One</button><button id="two">Two</button></div>
  <table><tr><th>Name</th><th>State</th><th>Rule</th><th>Note</th></tr>
    <tr><td id="name">proxy-a</td><td><span class="badge" id="badge">running</span></td><td id="rule">Node unreachable</td>
      <td class="cut">a very long note that is cut with an ellipsis inside its cell</td></tr></table>
  <div class="scroller"><pre>wide command line ${'x'.repeat(200)}</pre></div>
  <details><summary>Data summary</summary><table><tr><th>CPU</th><td>9.7%</td></tr><tr><th>Memory</th><td>26 GiB</td></tr></table></details>
  <h3>Proxies on pv1-1</h3><p>What a closed details element holds is not drawn, so it overlaps nothing.</p>
</main>${html}</body></html>`;

describe.skipIf(skip !== undefined)('the layout check (support/layout-check.ts) on a fixture page', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
  });
  afterAll(async () => browser?.close());

  const problemsWith = async (extra: string, root?: string) => {
    await page.setContent(fixture(extra));
    return pageLayoutProblems(page, root);
  };

  it('finds nothing on the page laid out well (a wide block scrolling in its box, a cut cell, a closed details are fine)', async () => {
    expect(await problemsWith('')).toEqual([]);
  });

  it('finds an element off screen, and the document scrolling sideways', async () => {
    const found = await problemsWith('#two { margin-left: 1200px; }');
    expect(found.map((p) => p.kind)).toContain('off-screen');
    expect(found.some((p) => p.kind === 'off-screen' && p.what.startsWith('button#two'))).toBe(true);
    expect(found.some((p) => p.what === 'document')).toBe(true);
  });

  it('finds an element off screen that the document does not scroll to (a dialog pushed right)', async () => {
    const found = await problemsWith('body { overflow: hidden; } #one { position: fixed; left: 1000px; width: 200px; }');
    expect(found.filter((p) => p.kind === 'off-screen').map((p) => p.what)).toEqual(['button#one "One"']);
  });

  it('finds a badge drawn over the text of the next cell', async () => {
    const found = await problemsWith('#badge { position: relative; left: 150px; }');
    const overlap = found.filter((p) => p.kind === 'overlap').map((p) => `${p.what} ${p.detail}`);
    expect(overlap).toHaveLength(1);
    expect(overlap[0]).toMatch(/Node unreachable.*running|running.*Node unreachable/);
    // The badge is outside its own cell too.
    expect(found.filter((p) => p.kind === 'spill').map((p) => p.detail)).toEqual([expect.stringContaining('"running" reaches')]);
  });

  it('finds text covered by an element that has no text of its own', async () => {
    await page.setContent(
      fixture('#cover { position: absolute; left: 0; top: 0; width: 400px; height: 120px; background: #ccc; }', '<div id="cover"></div>'),
    );
    const found = await pageLayoutProblems(page);
    expect(found.some((p) => p.kind === 'overlap' && p.what.startsWith('td#name') && p.detail.includes('div#cover'))).toBe(true);
  });

  it('finds a cell whose text spills into the next cell', async () => {
    const found = await problemsWith('#rule { white-space: nowrap; letter-spacing: 12px; }');
    const spill = found.filter((p) => p.kind === 'spill');
    expect(spill.map((p) => p.what)).toEqual(['td#rule "Node unreachable"']);
    expect(spill[0]!.detail).toContain('Node unreachable');
  });

  it('checks only the given root: a modal backdrop over the page is not an overlap of the page', async () => {
    const dialog = `<div style="position:fixed;inset:0;background:#0008"><div role="dialog" id="dlg" style="margin:40px;background:#fff">
      <p>Delete 1 proxy?</p><button>Delete</button></div></div>`;
    await page.setContent(fixture('', dialog));
    expect(await pageLayoutProblems(page, '#dlg')).toEqual([]);
    // The whole page, though, is covered: each covered text is named.
    expect((await pageLayoutProblems(page)).some((p) => p.kind === 'overlap')).toBe(true);
  });
});
