/**
 * What a person sees wrong with a page's layout, found by the page itself
 * (issue 23's walk): `layoutProblems` runs in the browser
 * (`page.evaluate(layoutProblems, root)`) and names
 * - off-screen: a visible element whose visible part (after the clipping of
 *   its scrolling or clipping ancestors) reaches past the window's left or
 *   right edge, or a document that scrolls sideways (vertical scroll inside
 *   a scrolling region is fine);
 * - overlap: text drawn over other text, or text covered by another element
 *   (the element on top at the text's middle is not the text's own);
 * - spill: text or an element inside a table cell (td, th, the ARIA cell
 *   roles) that reaches outside the cell's box, not clipped by it.
 * `root` (a selector) limits the checks to a part of the page: the open
 * modal dialog, whose backdrop covers all else. The function is sent to the
 * page as its source, so it uses nothing from outside its own body.
 */
import type { Page } from 'playwright-core';

export type LayoutProblemKind = 'off-screen' | 'overlap' | 'spill';

export interface LayoutProblem {
  kind: LayoutProblemKind;
  /** The element, as `tag#id.class "its text…"`. */
  what: string;
  /** By how much, where. */
  detail: string;
}

export function layoutProblems(root?: string | null): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const scope = (root ? document.querySelector(root) : document.body) ?? document.body;
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  const slack = 1;
  type Box = { left: number; right: number; top: number; bottom: number };

  const describe = (el: Element): string => {
    const id = el.id ? `#${el.id}` : '';
    const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}${id}${cls}${text ? ` "${text}"` : ''}`;
  };
  // Also false inside a closed <details> and under display: none or content-visibility: hidden.
  const visible = (el: Element): boolean => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  const clips = (el: Element): { x: boolean; y: boolean } => {
    const s = getComputedStyle(el);
    return { x: s.overflowX !== 'visible', y: s.overflowY !== 'visible' };
  };
  const intersect = (a: Box, b: Box): Box => ({
    left: Math.max(a.left, b.left),
    right: Math.min(a.right, b.right),
    top: Math.max(a.top, b.top),
    bottom: Math.min(a.bottom, b.bottom),
  });
  const empty = (b: Box) => b.right - b.left <= slack || b.bottom - b.top <= slack;
  /** The part of `box` that `from` and its ancestors' clipping leave visible, up to (and including) `upTo` when given. */
  const clipped = (from: Element | null, box: Box, upTo?: Element): Box => {
    let out = box;
    // The body's and the root's overflow is the window's own: what they cut is off screen, not clipped.
    for (let a = from; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const c = clips(a);
      if (c.x || c.y) {
        const r = a.getBoundingClientRect();
        out = intersect(out, {
          left: c.x ? r.left : -Infinity,
          right: c.x ? r.right : Infinity,
          top: c.y ? r.top : -Infinity,
          bottom: c.y ? r.bottom : Infinity,
        });
      }
      if (a === upTo) break;
    }
    return out;
  };
  /** Elements a person cannot see: hidden, or the one-pixel boxes that keep words for screen readers. */
  const shown = (el: Element, r: DOMRect) => r.width > slack && r.height > slack && visible(el) && !el.closest('[aria-hidden="true"]');

  // Off screen, sideways.
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + slack)
    problems.push({
      kind: 'off-screen',
      what: 'document',
      detail: `scrolls sideways: ${doc.scrollWidth} px wide in a ${doc.clientWidth} px window`,
    });
  const elements = [scope, ...scope.querySelectorAll('*')].filter((el) => !['SCRIPT', 'STYLE', 'OPTION', 'BR'].includes(el.tagName));
  const offScreen: Element[] = [];
  for (const el of elements) {
    const r = el.getBoundingClientRect();
    if (!shown(el, r)) continue;
    const v = clipped(el.parentElement, r);
    if (empty(v)) continue;
    if (v.right > width + slack || v.left < -slack) {
      // An element off screen because its parent is: name the outermost only.
      if (offScreen.some((o) => o.contains(el))) continue;
      offScreen.push(el);
      problems.push({
        kind: 'off-screen',
        what: describe(el),
        detail: `x ${Math.round(v.left)}–${Math.round(v.right)} in a ${width} px window`,
      });
    }
  }

  // Text: every line box of every text node, with the part of it that can be seen.
  type Line = { node: Text; parent: Element; box: Box; seen: Box };
  const lines: Line[] = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n as Text;
    const parent = text.parentElement;
    if (!parent || !text.data.trim() || ['SCRIPT', 'STYLE', 'OPTION', 'TEXTAREA', 'TITLE'].includes(parent.tagName)) continue;
    if (!shown(parent, parent.getBoundingClientRect())) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    for (const r of range.getClientRects()) {
      if (r.width <= slack || r.height <= slack) continue;
      const box = { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      const seen = intersect(clipped(parent, box), { left: 0, right: width, top: 0, bottom: height });
      if (!empty(seen)) lines.push({ node: text, parent, box, seen });
    }
  }

  // Overlap: text over text (lines of two text nodes that share more than a sliver), then text covered by an element.
  const reported = new Set<Element>();
  const overlapArea = (a: Box, b: Box) => {
    const i = intersect(a, b);
    return i.right - i.left > 2 && i.bottom - i.top > 2;
  };
  const sorted = [...lines].sort((a, b) => a.seen.top - b.seen.top);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length && sorted[j]!.seen.top < a.seen.bottom; j++) {
      const b = sorted[j]!;
      if (a.node === b.node || !overlapArea(a.seen, b.seen) || reported.has(b.parent)) continue;
      reported.add(b.parent);
      problems.push({ kind: 'overlap', what: describe(b.parent), detail: `its text is drawn over the text of ${describe(a.parent)}` });
    }
  }
  for (const line of lines) {
    // A line mostly scrolled out of its region shows a sliver at the region's edge, next to what borders it.
    if (reported.has(line.parent) || line.seen.bottom - line.seen.top < (line.box.bottom - line.box.top) / 2) continue;
    const x = (line.seen.left + line.seen.right) / 2;
    const y = (line.seen.top + line.seen.bottom) / 2;
    const top = document.elementFromPoint(x, y);
    if (!top || top.contains(line.parent) || line.parent.contains(top)) continue;
    // Form controls draw their own text and are the element there.
    if (top.closest('label') !== null && top.closest('label') === line.parent.closest('label')) continue;
    reported.add(line.parent);
    problems.push({
      kind: 'overlap',
      what: describe(line.parent),
      detail: `covered by ${describe(top)} at (${Math.round(x)}, ${Math.round(y)})`,
    });
  }

  // Spill: what a cell holds stays inside the cell, unless the cell itself (or what is inside it) clips it.
  const cells = scope.querySelectorAll('td, th, [role="cell"], [role="gridcell"], [role="columnheader"], [role="rowheader"]');
  for (const cell of cells) {
    const c = cell.getBoundingClientRect();
    if (!shown(cell, c)) continue;
    const out = (b: Box) => b.right > c.right + slack || b.left < c.left - slack || b.bottom > c.bottom + slack || b.top < c.top - slack;
    let spilled: { what: string; box: Box } | undefined;
    for (const line of lines) {
      if (spilled || !cell.contains(line.node)) continue;
      const b = clipped(line.parent, line.box, cell);
      if (!empty(b) && out(b)) spilled = { what: `its text "${line.node.data.trim().slice(0, 40)}"`, box: b };
    }
    for (const el of cell.querySelectorAll('*')) {
      if (spilled) break;
      const r = el.getBoundingClientRect();
      if (!shown(el, r)) continue;
      const b = clipped(el.parentElement, { left: r.left, right: r.right, top: r.top, bottom: r.bottom }, cell);
      if (!empty(b) && out(b)) spilled = { what: describe(el), box: b };
    }
    if (spilled) {
      const s = spilled.box;
      problems.push({
        kind: 'spill',
        what: describe(cell),
        detail: `${spilled.what} reaches x ${Math.round(s.left)}–${Math.round(s.right)}, y ${Math.round(s.top)}–${Math.round(s.bottom)}, outside the cell's x ${Math.round(c.left)}–${Math.round(c.right)}, y ${Math.round(c.top)}–${Math.round(c.bottom)}`,
      });
    }
  }
  return problems;
}

/** Runs `layoutProblems` in the page, over `root` (a selector) or the whole page. */
export function pageLayoutProblems(page: Page, root?: string): Promise<LayoutProblem[]> {
  return page.evaluate(layoutProblems, root ?? null);
}

export function formatLayoutProblems(where: string, problems: LayoutProblem[]): string {
  if (problems.length === 0) return `${where}: layout fine`;
  return [
    `${where}: ${problems.length} layout problem${problems.length === 1 ? '' : 's'}`,
    ...problems.slice(0, 12).map((p) => `  [${p.kind}] ${p.what}: ${p.detail}`),
  ]
    .concat(problems.length > 12 ? [`  … and ${problems.length - 12} more`] : [])
    .join('\n');
}
