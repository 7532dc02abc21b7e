/**
 * The whole desktop app with `electron` mocked: the real shell (main, preload, IPC, protocols, tray...)
 * around the real engine in its utility process (here in-process) and the built-in sandbox, working a
 * batch, taking files and menu commands, and closing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaceBridge, ShellEvent } from '../../../shared/face';
import type { DesktopApp } from '../../../electron/main/app';
import { fake, type FakeBrowserWindow } from '../../helpers/electron-fake';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { startApp } from './start-app';

vi.mock('electron', async () => (await import('../../helpers/electron-module')).electronModule());

let desktop: DesktopApp;
let bridge: FaceBridge;
let win: FakeBrowserWindow;
let rendererDir: string;

beforeAll(async () => {
  ({ desktop, bridge, win, rendererDir } = await startApp());
});

afterAll(async () => {
  await desktop?.engine.stop(1000);
});

const shellEvents: ShellEvent[] = [];

const until = (test: () => boolean | Promise<boolean>) =>
  vi.waitFor(async () => expect(await test()).toBe(true), { timeout: 30_000 });

describe('a batch in the app', () => {
  let jobId = 0;
  let output = '';
  let source = '';

  it('runs to the end by itself (the engine works the queue continuously)', async () => {
    source = videoMp4(2, 'desktop-batch.mp4');
    const added = await bridge.add({ inputs: [source], to: ['es'], outDir: tempDir() });
    jobId = added.added[0] ?? 0;
    await until(async () => (await bridge.getJob({ id: jobId })).state === 'completed');
    const job = await bridge.getJob({ id: jobId });
    output = job.outputs.find((o) => o.type === 'translated_mp4')?.path ?? '';
    expect(existsSync(output)).toBe(true);
  });

  it('tells once that the batch finished, clears the taskbar, lets the machine sleep, and says idle in the tray', async () => {
    await until(() => fake.notifications.length > 0);
    expect(fake.notifications.map((n) => [n.title, n.body])).toEqual([['Batch finished', '1 done']]);
    await until(() => win.progress.at(-1)?.value === -1);
    expect(win.progress.some((p) => p.value >= 0)).toBe(true);
    expect(fake.blockers.active.size).toBe(0);
    expect(fake.trays[0]?.tooltip).toBe('Dubdesk — idle');
    // A click on it brings the window to the front.
    win.visible = false;
    fake.notifications[0]?.emitter.emit('click');
    expect(win.visible).toBe(true);
  });

  it('plays the job’s own media through the media protocol, with ranges, and nothing else', async () => {
    const media = fake.protocols.get('dubdesk-media');
    if (!media) throw new Error('no media protocol');
    const full = await media(new Request(bridge.mediaUrl(jobId, 'dub')));
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('video/mp4');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('access-control-allow-origin')).toBe('dubdesk://app');
    const bytes = Buffer.from(await full.arrayBuffer());
    expect(bytes.equals(readFileSync(output))).toBe(true);
    const part = await media(
      new Request(bridge.mediaUrl(jobId, 'dub'), { headers: { Range: 'bytes=10-19' } }),
    );
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    const bad = await media(
      new Request(bridge.mediaUrl(jobId, 'dub'), { headers: { Range: `bytes=${bytes.length}-` } }),
    );
    expect(bad.status).toBe(416);
    const subs = await media(new Request(bridge.mediaUrl(jobId, 'subtitles')));
    expect(subs.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect((await subs.text()).startsWith('WEBVTT')).toBe(true);
    const original = await media(new Request(bridge.mediaUrl(jobId, 'original')));
    expect(Buffer.from(await original.arrayBuffer()).equals(readFileSync(source))).toBe(true);
    for (const url of [
      'dubdesk-media://job/999999/dub',
      `dubdesk-media://job/${jobId}/poster`,
      `dubdesk-media://job/${jobId}/dub?path=/etc/passwd`,
      'dubdesk-media://job/%2e%2e/etc/passwd',
    ])
      expect((await media(new Request(url))).status, url).toBe(404);
  });

  it('reveals and opens the job’s outputs and sources, and no other path', async () => {
    await bridge.showInFolder(output);
    await bridge.openPath(output);
    await bridge.openPath(source);
    expect(fake.shell.shown).toEqual([output]);
    expect(fake.shell.opened).toEqual([output, source]);
    for (const path of [
      '/etc/passwd',
      join(rendererDir, 'index.html'),
      'relative/clip.mp4',
      `${output}.part`,
    ])
      await expect(bridge.openPath(path), path).rejects.toMatchObject({ code: 'not-found' });
    await expect(bridge.showInFolder(42 as never)).rejects.toMatchObject({ code: 'bad-request' });
    expect(fake.shell.opened).toHaveLength(2);
  });
});

describe('files, menus and sleep', () => {
  it('hands files of a second launch to the page, and those that came before it listened', async () => {
    const dir = tempDir();
    const [a, b] = [join(dir, 'a.mp4'), join(dir, 'b.mov')];
    writeFileSync(a, 'x');
    writeFileSync(b, 'x');
    const sent = vi.spyOn(desktop.shellEvents, 'send');
    fake.app.emit('second-instance', {}, ['/opt/dubdesk/dubdesk', a, '--flag'], dir);
    await vi.waitFor(() => expect(sent).toHaveBeenCalledWith({ type: 'open-files', paths: [a] }));
    sent.mockRestore();
    const stop = bridge.onShellEvent?.((e) => shellEvents.push(e));
    expect(stop).toBeTypeOf('function');
    expect(shellEvents).toEqual([{ type: 'open-files', paths: [a] }]);
    // macOS: files dropped on the dock icon, one event each.
    const open = { preventDefault: vi.fn() };
    fake.app.emit('open-file', open, a);
    fake.app.emit('open-file', open, b);
    await until(() => shellEvents.length === 2);
    expect(shellEvents[1]).toEqual({ type: 'open-files', paths: [a, b] });
    expect(open.preventDefault).toHaveBeenCalled();
  });

  it('adds files from File > Add Files and sends Find to the page', async () => {
    type Item = { label?: string; click?: () => void; submenu?: Item[] };
    const menu = fake.menus.at(-1) as { template: Item[] };
    const items = (function flat(list: Item[]): Item[] {
      return list.flatMap((i) => [i, ...flat(i.submenu ?? [])]);
    })(menu.template);
    fake.dialog.openResult = { canceled: false, filePaths: ['/videos/picked.mp4'] };
    items.find((i) => i.label === 'Add Files…')?.click?.();
    items.find((i) => i.label === 'Find…')?.click?.();
    await until(() => shellEvents.length >= 4);
    expect(shellEvents.slice(2)).toEqual(
      expect.arrayContaining([
        { type: 'open-files', paths: ['/videos/picked.mp4'] },
        { type: 'command', command: 'find' },
      ]),
    );
  });

  it('polls at once when the machine wakes up', () => {
    const wakes = () =>
      fake.crossings.filter((c) => c.route === 'main->engine' && c.channel === 'wake').length;
    const before = wakes();
    fake.powerMonitor.emit('resume');
    expect(wakes()).toBe(before + 1);
  });
});

describe('closing and quitting', () => {
  it('asks when the window closes while work runs: the tray keeps working, cancel keeps the window', async () => {
    desktop.engine.hold(true);
    await bridge.add({ inputs: [videoMp4(2, 'desktop-close.mp4')], to: ['fr'], outDir: tempDir() });
    await until(() => (fake.trays[0]?.tooltip ?? '').includes('1 left'));
    fake.dialog.messageResponse = { response: 2, checkboxChecked: false };
    expect(win.close()).toBe(false);
    await until(() => fake.dialog.messageBoxes.length === 1);
    expect(fake.dialog.messageBoxes[0]).toMatchObject({
      buttons: ['Keep Working in the Tray', 'Stop and Quit', 'Cancel'],
      message: 'Dubdesk is still working',
    });
    expect(win.visible).toBe(true);
    fake.dialog.messageResponse = { response: 0, checkboxChecked: false };
    win.close();
    await until(() => !win.visible);
    expect(win.destroyed).toBe(false);
    expect(existsSync(join(desktop.home, 'window-state.json'))).toBe(true);
    desktop.engine.hold(false);
  });

  it('quits by stopping the engine gently, then quits for real', async () => {
    const quit = fake.app.quit as ReturnType<typeof vi.fn>;
    const calls = quit.mock.calls.length;
    (fake.app.quit as () => void)();
    expect(fake.crossings.some((c) => c.route === 'main->engine' && c.channel === 'stop')).toBe(true);
    await until(() => fake.crossings.some((c) => c.route === 'engine->main' && c.channel === 'stopped'));
    await until(() => quit.mock.calls.length === calls + 2);
  });
});
