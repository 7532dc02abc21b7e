import type { Page } from 'playwright-core';

/**
 * The field being typed in, whole inside the scrolling box that holds it (not under a sticky footer): null
 * when it is, else what cuts it and by how much. A language picker counts as its whole box of tags.
 * Measured as painted: after the next frame, whose layout may move it (and whose resize observers run).
 */
export function focusedFieldCut(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted)));
    const field = document.activeElement?.closest('.picker-box') ?? document.activeElement;
    if (!field || field === document.body) return null;
    let box = field.parentElement;
    while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
    const f = field.getBoundingClientRect();
    const b = box?.getBoundingClientRect();
    if (!b || (f.bottom <= b.bottom + 1 && f.top >= b.top - 1)) return null;
    const by = f.bottom > b.bottom + 1 ? f.bottom - b.bottom : b.top - f.top;
    return `the focused field is cut off by .${box?.className} (${Math.round(by)} px)`;
  });
}
