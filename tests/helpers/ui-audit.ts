import type { Page } from 'playwright-core';

/**
 * What a screenshot alone does not prove, checked in the page: controls without an accessible
 * name, a page wider than the window, and controls that stick out of their card or dialog (a
 * control inside a scrolling box is where it should be, so those are left out).
 */
declare const document: {
  querySelectorAll(s: string): ArrayLike<UiElement>;
  getElementById(id: string): { textContent: string | null } | null;
  scrollingElement: { scrollWidth: number; clientWidth: number } | null;
  querySelector(s: string): { scrollWidth: number; clientWidth: number } | null;
};
declare const getComputedStyle: (el: UiElement) => { overflowX: string; visibility: string };
interface UiElement {
  tagName: string;
  id: string;
  textContent: string | null;
  labels?: ArrayLike<{ textContent: string | null }> | null;
  parentElement: UiElement | null;
  getAttribute(n: string): string | null;
  getClientRects(): { length: number };
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number; width: number };
  closest(s: string): UiElement | null;
  matches(s: string): boolean;
}

/** Controls without an accessible name, in the whole page or `within` one part of it (a CSS selector). */
export async function unnamedControls(page: Page, within = ''): Promise<string[]> {
  return page.evaluate((scope) => {
    const out: string[] = [];
    const controls = 'button, select, input, textarea, summary, a[href], [tabindex="0"], [role="row"], [role="radio"], [role="option"]';
    const els = document.querySelectorAll(scope ? `${scope} :is(${controls})` : controls);
    for (let i = 0; i < els.length; i++) {
      const el = els[i]!;
      if (el.getClientRects().length === 0 && el.tagName !== 'INPUT') continue;
      // Out of reach on purpose (a file input a button opens): neither focusable nor exposed.
      if (el.getAttribute('aria-hidden') === 'true' && el.getAttribute('tabindex') === '-1') continue;
      const by = el.getAttribute('aria-labelledby');
      const labelled = by
        ? by
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' ')
        : '';
      const labels = el.labels
        ? Array.from(el.labels)
            .map((l) => l.textContent ?? '')
            .join(' ')
        : '';
      const name = [
        labelled,
        el.getAttribute('aria-label') ?? '',
        labels,
        el.tagName === 'SELECT' || el.tagName === 'INPUT' ? '' : (el.textContent ?? ''),
        el.getAttribute('title') ?? '',
      ]
        .join('')
        .trim();
      if (!name) out.push(`<${el.tagName.toLowerCase()} id="${el.id}" data-testid="${el.getAttribute('data-testid') ?? ''}">`);
    }
    return out;
  }, within);
}

export async function layoutDefects(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.scrollingElement;
    if (root && root.scrollWidth > root.clientWidth + 1) out.push(`the page is ${root.scrollWidth - root.clientWidth}px wider than the window`);
    const main = document.querySelector('.main');
    if (main && main.scrollWidth > main.clientWidth + 1) out.push(`the main region scrolls sideways by ${main.scrollWidth - main.clientWidth}px`);
    const els = document.querySelectorAll('button, select, input:not([type="file"]), textarea, code, .path');
    for (let i = 0; i < els.length; i++) {
      const el = els[i]!;
      if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      const box = el.closest('.card, .details-pane, dialog, .activity-strip');
      if (!box) continue;
      let scrolled = false;
      for (let p = el.parentElement; p && p !== box; p = p.parentElement) {
        const ox = getComputedStyle(p).overflowX;
        if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') scrolled = true;
      }
      if (scrolled) continue;
      const r = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      if (r.width > 0 && (r.left < b.left - 1 || r.right > b.right + 1))
        out.push(
          `<${el.tagName.toLowerCase()} data-testid="${el.getAttribute('data-testid') ?? ''}"> "${(el.textContent ?? el.getAttribute('aria-label') ?? '').slice(0, 40)}" sticks out of its ${box.tagName.toLowerCase()} by ${Math.round(Math.max(b.left - r.left, r.right - b.right))}px`,
        );
    }
    return out;
  });
}
