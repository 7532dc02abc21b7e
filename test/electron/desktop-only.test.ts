/**
 * What only the desktop app has, under real Electron: its menu, taskbar progress, one notification
 * per batch, a second launch handing its files to the first, a quit during an upload that asks and a restart
 * that resumes paying nothing twice, and the key in the OS store used by `dubdesk` in a terminal. Run by
 * test/electron/run-suite.mjs where Electron's binary is present.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import { PATIENT } from '../helpers/browser-app';
import { runCli } from '../helpers/cli';
import { allJobs } from '../helpers/engine';
import { startedDubs } from '../helpers/started-dubs';
import { tempDir } from '../helpers/temp-dir';
import { videoMp4 } from '../helpers/media';
import { apiThroughWindow, launchDesktop, stubOpenDialog, type DesktopRun } from './electron-app';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 1 });
});
afterAll(async () => {
  await sb.stop();
});

const serviceEnv = () => ({
  DUBDESK_BASE_URL: sb.baseUrl,
  DUBDESK_LEGACY_URL: sb.legacyUrl,
  DUBDESK_API_KEY: sb.account.apiKey,
});

/** Records, in the main process, what the app asks of Electron's notifications, taskbar and dialogs. */
async function record(run: DesktopRun): Promise<void> {
  await run.electron.evaluate(({ BrowserWindow, dialog, Notification }) => {
    const seen = { notes: [] as string[], progress: [] as number[], asked: [] as string[] };
    (globalThis as { seen?: typeof seen }).seen = seen;
    Notification.prototype.show = function show(this: Notification) {
      seen.notes.push(this.title);
    };
    for (const w of BrowserWindow.getAllWindows()) {
      const set = w.setProgressBar.bind(w);
      w.setProgressBar = (value: number, options?: Electron.ProgressBarOptions) => {
        seen.progress.push(value);
        set(value, options);
      };
    }
    dialog.showMessageBox = (async (...args: unknown[]) => {
      const o = args.at(-1) as Electron.MessageBoxOptions;
      seen.asked.push(o.message);
      // The close prompt's "Stop and Quit".
      return { response: o.buttons?.indexOf('Stop and Quit') ?? 0, checkboxChecked: false };
    }) as typeof dialog.showMessageBox;
  });
}
const seen = (run: DesktopRun) =>
  run.electron.evaluate(
    () => (globalThis as { seen?: { notes: string[]; progress: number[]; asked: string[] } }).seen,
  );

/** Adds `files` through File > Add Files (the picker stubbed) and starts them into Spanish. */
async function addAndStart(run: DesktopRun, files: string[]): Promise<void> {
  await stubOpenDialog(run.electron, files);
  await run.page.keyboard.press('Control+o');
  const sheet = run.page.getByRole('dialog', { name: 'Add to queue' });
  await sheet.waitFor();
  await run.page.getByRole('button', { name: 'browse files' }).click();
  const box = run.page.getByRole('combobox', { name: /Dub into/ });
  await box.fill('Spanish');
  await run.page.getByRole('option', { name: /^Spanish es( |$)/ }).waitFor();
  await box.press('Enter');
  await sheet.getByRole('button', { name: 'Add and start' }).click();
  await sheet.waitFor({ state: 'hidden' });
}

describe('the desktop shell', () => {
  let run: DesktopRun;
  beforeAll(async () => {
    run = await launchDesktop(tempDir('dubdesk-electron-'), serviceEnv());
    await run.page.getByRole('button', { name: '+ Add files' }).waitFor();
    await record(run);
  });
  afterAll(async () => {
    await run?.electron.close();
  });

  it('has its menu, with Copy Diagnostics and Check for Updates', async () => {
    const menu = await run.electron.evaluate(({ Menu }) =>
      (Menu.getApplicationMenu()?.items ?? []).map((i) => ({
        label: i.label,
        items: (i.submenu?.items ?? []).map((s) => s.label),
      })),
    );
    const all = menu.flatMap((m) => m.items);
    for (const label of ['Add Files…', 'Find…', 'Copy Diagnostics', 'Check for Updates…'])
      expect(all, label).toContain(label);
    // Electron lists no trays to look at from outside: the tray is tested with the shell mocked
    // (test/integration/desktop/app.test.ts).
  });

  it('sets taskbar progress while working, clears it at the end, and notifies once for the batch', async () => {
    const files = [videoMp4(2, 'one.mp4'), videoMp4(2, 'two.mp4')];
    await addAndStart(run, files);
    const api = apiThroughWindow(run.page);
    await expect
      .poll(async () => (await allJobs(api)).filter((j) => j.state === 'completed').length, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(2);
    await expect.poll(async () => (await seen(run))?.progress.at(-1), PATIENT).toBe(-1);
    const progress = (await seen(run))?.progress ?? [];
    expect(progress.some((v) => v >= 0 && v <= 1)).toBe(true);
    await expect.poll(async () => (await seen(run))?.notes.length, PATIENT).toBe(1);
  });

  it('takes the files of a second launch into the first window’s Add sheet, starting nothing', async () => {
    const api = apiThroughWindow(run.page);
    const before = (await api.listJobs({ limit: 1 })).total;
    const file = videoMp4(1, 'handed-over.mp4');
    const electronPath = run.electron.process().spawnfile;
    const second = spawnSync(
      electronPath,
      [...(process.platform === 'linux' ? ['--no-sandbox'] : []), process.cwd(), file],
      { env: { ...process.env, DUBDESK_HOME: run.home, DUBDESK_KEY_STORE: 'file' }, timeout: 60_000 },
    );
    expect(second.status).toBe(0); // it found the first one and quit
    const sheet = run.page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    await sheet.getByText('handed-over.mp4').waitFor();
    expect((await api.listJobs({ limit: 1 })).total).toBe(before);
    await sheet.getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('quitting during an upload', () => {
  it('asks first (Windows, Linux); after a restart the queue finishes, each dub paid once', async () => {
    const home = tempDir('dubdesk-electron-');
    const slow = await startSandbox({ pipelineSeconds: 1 });
    // Every answer late: the upload is still going when the window is closed.
    slow.setFaults({ latencyMs: 3000 });
    const env = {
      DUBDESK_BASE_URL: slow.baseUrl,
      DUBDESK_LEGACY_URL: slow.legacyUrl,
      DUBDESK_API_KEY: slow.account.apiKey,
    };
    try {
      const first = await launchDesktop(home, env);
      await first.page.getByRole('button', { name: '+ Add files' }).waitFor();
      await record(first);
      await addAndStart(first, [videoMp4(3, 'long.mp4')]);
      const api = apiThroughWindow(first.page);
      await expect
        .poll(async () => (await allJobs(api)).some((j) => j.state === 'uploading'), PATIENT)
        .toBe(true);
      // Closing the window while it uploads asks first; the answer here is "Stop and Quit".
      const closed = first.electron.waitForEvent('close');
      if (process.platform === 'darwin') {
        // macOS keeps the app (and its work) when the window closes: Quit is the menu's.
        await first.electron.evaluate(({ app }) => app.quit()).catch(() => {});
      } else {
        const asked = first.electron.evaluate(async ({ BrowserWindow }) => {
          BrowserWindow.getAllWindows()[0]?.close();
          const s = (globalThis as { seen?: { asked: string[] } }).seen;
          while (!s?.asked.length) await new Promise((r) => setTimeout(r, 20));
          return [...s.asked];
        });
        expect(await asked).toEqual(['Dubdesk is still working']);
      }
      await closed;

      slow.setFaults({ latencyMs: 0 });
      const second = await launchDesktop(home, env);
      const again = apiThroughWindow(second.page);
      await expect
        .poll(async () => (await allJobs(again)).map((j) => j.state), { timeout: 60_000, interval: 250 })
        .toEqual(['completed']);
      // One dub made and charged, however the upload was cut.
      expect(startedDubs(slow)).toHaveLength(1);
      await second.electron.close();
    } finally {
      await slow.stop();
    }
  });
});

const keyring =
  process.platform !== 'linux' ||
  (Boolean(process.env.DBUS_SESSION_BUS_ADDRESS) &&
    spawnSync('sh', ['-c', 'command -v gnome-keyring-daemon']).status === 0);

describe.runIf(keyring)('the key in the OS key store', () => {
  it('saved in the app, is the one `dubdesk` uses in a terminal', async () => {
    if (process.platform === 'linux')
      spawnSync('gnome-keyring-daemon', ['--unlock', '--components=secrets'], { input: 'session-password' });
    const home = tempDir('dubdesk-electron-');
    const run = await launchDesktop(home, { DUBDESK_KEY_STORE: '' });
    try {
      const api = apiThroughWindow(run.page);
      await api.setSettings({
        service: { mode: 'service', baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey },
      });
      expect((await api.getSettings()).service.keyStore).toBe('os');
    } finally {
      await run.electron.close();
    }
    const { DUBDESK_API_KEY: _k, DUBDESK_KEY_STORE: _s, ...env } = process.env;
    const me = await runCli(['me', '--json'], { ...env, DUBDESK_HOME: home });
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ email: sb.account.email });
  });
});
