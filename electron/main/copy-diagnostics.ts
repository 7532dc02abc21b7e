/** Help > Copy Diagnostics: the engine's report on the clipboard, and a word that it is there. */
import type { BrowserWindow, Clipboard, Dialog, MessageBoxOptions } from 'electron';

export interface DiagnosticsSource {
  diagnostics(): Promise<string>;
}

export async function copyDiagnostics(
  engine: DiagnosticsSource,
  clipboard: Pick<Clipboard, 'writeText'>,
  dialog: Pick<Dialog, 'showMessageBox'>,
  window: () => BrowserWindow | null,
): Promise<void> {
  const say = (o: MessageBoxOptions) => {
    const w = window();
    return w ? dialog.showMessageBox(w, o) : dialog.showMessageBox(o);
  };
  try {
    const report = await engine.diagnostics();
    clipboard.writeText(report);
    const failed = report.split('\n').filter((l) => l.startsWith('✗')).length;
    await say({
      type: failed ? 'warning' : 'info',
      message: 'Diagnostics copied',
      detail: `${failed ? `${failed} check${failed === 1 ? '' : 's'} failed; each says its fix.` : 'Every check passed.'} Paste the report where you ask for help: API keys are left out.`,
    });
  } catch (e) {
    await say({
      type: 'error',
      message: 'Diagnostics could not be gathered',
      detail: e instanceof Error ? e.message : String(e),
    });
  }
}
