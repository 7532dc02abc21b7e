import { useEffect, useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pastBudgetWords } from '../../../shared/contract/spending';
import { Dialog } from '../components/Dialog';
import { DropZone } from '../components/DropZone';
import { ErrorText, errorElsewhere, errorFor } from '../components/ErrorText';
import { EstimateFiles } from '../components/EstimateFiles';
import { EstimateSummary } from '../components/EstimateSummary';
import { NamedPresets } from '../components/NamedPresets';
import { PresetControls } from '../components/PresetControls';
import { SendsSummary } from '../components/SendsSummary';
import { baseName, formatCredits, plural } from '../format';
import { useApp, useAppApi, useBridge } from '../store';
import { estimateTotals } from '../store/estimate';

const FORM_FIELDS = ['inputs', 'to', 'outDir'];

/** Add to queue: what, into which languages, how; the live estimate; then add (and start). */
export function AddSheet() {
  const store = useAppApi();
  const open = useApp((s) => s.addOpen);
  const preset = useApp((s) => s.preset);
  const setPreset = useApp((s) => s.setPreset);
  // A refused estimate (a relative folder, a language) is shown where the add's own refusal would be.
  const formError = useApp((s) => s.addError ?? s.estimateError);
  const adding = useApp((s) => s.adding);
  const closeAddSheet = useApp((s) => s.closeAddSheet);
  const startDraft = useApp((s) => s.startDraft);
  const drafted = useApp((s) => s.inputs.length > 0 || s.staging !== null);
  const totals = useApp(
    useShallow((s) =>
      s.estimate ? estimateTotals(s.estimate, s.again, s.totals?.creditsCommitted ?? 0) : null,
    ),
  );
  const canAdd = totals !== null && totals.jobs > 0 && !adding;
  const overBalance = totals !== null && totals.overBy > 0;
  const budget = useApp(
    useShallow((s) => ({
      over: s.estimate?.overBudget ?? false,
      left: s.estimate?.budgetLeft ?? null,
      view: s.estimate?.budget ?? null,
    })),
  );
  const over = overBalance || budget.over;
  const bridge = useBridge();
  const [uploadsFolder, setUploadsFolder] = useState<string | null>(null);
  const shortcutId = useId();

  // Web: uploaded files' own folder is serve's staging; say where their results go instead.
  useEffect(() => {
    if (!open || !bridge.uploadsFolder) return;
    let live = true;
    bridge.uploadsFolder().then(
      (path) => live && setUploadsFolder(path),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [open, bridge]);

  async function submit() {
    const s = store.getState();
    if (budget.over && totals) {
      const past = budget.view
        ? `, ${pastBudgetWords(budget.view, totals.credits, formatCredits)}`
        : ', past your monthly budget';
      const ok = await s.confirm({
        title: 'Add past your monthly budget?',
        body: `This batch needs about ${formatCredits(totals.credits)}${past}. Add it anyway, or cancel and raise the budget in Settings → Spending.`,
        confirmLabel: 'Add anyway',
        danger: true,
      });
      if (!ok) return;
    }
    if (overBalance && totals) {
      const ok = await s.confirm({
        title: 'Add over your balance?',
        body: `This batch needs ${formatCredits(totals.credits)}: with the queue, your balance is short by ${formatCredits(totals.overBy)}. Jobs that cannot be paid for wait until you add credits.`,
        confirmLabel: 'Add anyway',
        danger: true,
      });
      if (!ok) return;
    }
    const result = await s.submitAdd(over);
    if (!result) return;
    const queued = result.added.length + result.retried.length;
    // Which ones, not just how many: the sheet that showed why is closing.
    const names = result.refused.slice(0, 3).map((r) => baseName(r.input));
    const more =
      result.refused.length > names.length ? ` and ${result.refused.length - names.length} more` : '';
    const skipped = result.refused.length ? `; skipped: ${names.join(', ')}${more}` : '';
    s.notify(
      'info',
      queued === 0
        ? `Nothing new to dub: ${plural(result.alreadyQueued.length, 'dub is', 'dubs are')} already in the queue${skipped}.`
        : `${plural(queued, 'dub')} added${result.credits ? ` (${formatCredits(result.credits)})` : ''}${skipped}.`,
    );
    s.setAddOpen(false);
    s.setScreen('queue');
    if (queued > 0) {
      // The keyboard goes to the new batch (not back to the button that opened the sheet): in a view that shows it.
      s.setSearch('');
      s.setView('all');
      s.setFocusBatch([...result.added, ...result.retried]);
    }
  }

  // Ctrl/Cmd+Enter adds from anywhere in the sheet: no need to Tab through every field to the button.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || !canAdd) return;
      e.preventDefault();
      void submit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <Dialog
      open={open}
      title="Add to queue"
      onClose={closeAddSheet}
      className="sheet add-sheet"
      footer={
        <>
          <EstimateSummary />
          {budget.over && (
            <p className="hint warn" role="status">
              Past the monthly budget: {formatCredits(Math.max(0, budget.left ?? 0))} left this month
              (Settings → Spending raises it).
            </p>
          )}
          <ErrorText error={errorElsewhere(formError, FORM_FIELDS)} />
          <p id={shortcutId} className="visually-hidden">
            Shortcut: Ctrl+Enter (⌘+Enter on macOS) adds from anywhere in the sheet.
          </p>
          <div className="sheet-buttons">
            {drafted && (
              <button type="button" className="start-over" onClick={startDraft}>
                Start over
              </button>
            )}
            {/* Cancel is the one way out that means it: the draft goes. Escape and ✕ keep it. */}
            <button
              type="button"
              onClick={() => {
                startDraft();
                closeAddSheet();
              }}
            >
              Cancel
            </button>
            <button
              type="button"
              className={over ? 'danger' : 'primary'}
              disabled={!canAdd}
              aria-keyshortcuts="Control+Enter Meta+Enter"
              aria-describedby={shortcutId}
              onClick={() => void submit()}
            >
              {adding ? 'Adding…' : over ? 'Add anyway…' : 'Add and start'}
            </button>
          </div>
        </>
      }
    >
      <div className="add-columns">
        <div className="add-sources">
          <DropZone />
          <ErrorText error={errorFor(formError, 'inputs')} />
          <EstimateFiles />
        </div>
        <div className="add-choices">
          <NamedPresets value={preset} onApply={setPreset} />
          <PresetControls
            value={preset}
            onChange={setPreset}
            error={formError}
            uploadsFolder={uploadsFolder}
            sendsSummary={<SendsSummary />}
            tracksOfEstimate
          />
        </div>
      </div>
    </Dialog>
  );
}
