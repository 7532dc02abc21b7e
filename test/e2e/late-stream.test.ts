/**
 * A tab whose event stream opens after its first answers, or opens again after a break: a browser sends its
 * requests over several connections, and the stream's may be set up last (a busy machine, a proxy, a sixth
 * connection). What changed in between (the balance first read, files a command line added) reaches the page
 * by no event, so the page must ask again once its stream is open.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { addButtonShown, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { videoMp4 } from '../helpers/media';
import { shown } from '../helpers/serve-cli';

/** Holds the page's event stream requests until released; each hold covers the next request too. */
class StreamGate {
  private release: () => void = () => {};
  private held: Promise<void> = Promise.resolve();
  /** Stream requests that reached the gate. */
  arrived = 0;

  hold(): void {
    this.held = new Promise((resolve) => (this.release = resolve));
  }
  open(): void {
    this.release();
  }
  async install(context: BrowserContext): Promise<void> {
    await context.route('**/api/events', async (route) => {
      this.arrived += 1;
      await this.held;
      await route.continue();
    });
  }
}

describe('a tab whose event stream opens late', () => {
  const gate = new StreamGate();
  const e2e = openedApp({
    work: false,
    page: {
      beforeOpen: (context) => {
        gate.hold();
        return gate.install(context);
      },
    },
  });

  it('shows the balance and the files added before it opened', async () => {
    const { page } = e2e.view;
    await expect.poll(() => gate.arrived, PATIENT).toBe(1);
    await addButtonShown(page);
    // The balance is read for the first time (the page, or the command line, asked) while no stream hears it.
    await expect.poll(async () => (await e2e.app.host.api.totals()).balance, PATIENT).not.toBeNull();
    await e2e.app.host.api.add({ inputs: [videoMp4(2, 'added-from-the-command-line.mp4')], to: ['es'] });
    gate.open();
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
    await page.getByRole('row', { name: /added-from-the-command-line\.mp4/ }).waitFor(PATIENT);
  });

  it('after a break, shows what changed while the stream was down', async () => {
    const { page } = e2e.view;
    gate.hold();
    const before = gate.arrived;
    e2e.app.server.events.closeAll();
    await expect.poll(() => gate.arrived, PATIENT).toBe(before + 1);
    await e2e.app.host.api.add({ inputs: [videoMp4(2, 'added-while-the-stream-was-down.mp4')], to: ['fr'] });
    gate.open();
    await page.getByRole('row', { name: /added-while-the-stream-was-down\.mp4/ }).waitFor(PATIENT);
  });
});
