/** Help > Copy Diagnostics: the engine's report on the clipboard, and a word that it is there. */
import type { Clipboard, Dialog } from 'electron';

export interface DiagnosticsSource {
  diagnostics(): Promise<string>;
}

export async function copyDiagnostics(
  engine: DiagnosticsSource,
  clipboard: Pick<Clipboard, 'writeText'>,
  dialog: Pick<Dialog, 'showMessageBox'>,
): Promise<void> {
  try {
    const report = await engine.diagnostics();
    clipboard.writeText(report);
    const failed = report.split('\n').filter((l) => l.startsWith('✗')).length;
    await dialog.showMessageBox({
      type: failed ? 'warning' : 'info',
      message: 'Diagnostics copied',
      detail: `${failed ? `${failed} check${failed === 1 ? '' : 's'} failed; each says its fix.` : 'Every check passed.'} Paste the report where you ask for help: API keys are left out.`,
    });
  } catch (e) {
    await dialog.showMessageBox({
      type: 'error',
      message: 'Diagnostics could not be gathered',
      detail: e instanceof Error ? e.message : String(e),
    });
  }
}
