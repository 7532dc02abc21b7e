import type { StateCreator } from 'zustand';
import type { Language, Languages } from '../../../shared/contract/account';
import type { AddResult, Estimate } from '../../../shared/contract/batches';
import type { ContractError } from '../../../shared/contract/errors';
import type { ActionResult, JobFilter, JobView, SourceRow } from '../../../shared/contract/jobs';
import type { Preset, PresetOptionsInput } from '../../../shared/contract/presets';
import type { MoveTarget, QueueTotals } from '../../../shared/contract/queue';
import type { Spending } from '../../../shared/contract/spending';
import type { WhenDone, WhenDoneState } from '../../../shared/when-done';
import type { Settings, SettingsPatch } from '../../../shared/contract/settings';
import type { WatchFile, WatchFolder, WatchPresetInput } from '../../../shared/contract/watch';
import type { BrowserFile, FaceBridge } from '../../../shared/face';
import type { PresetDraft } from './preset';
import type { QueueView } from './views';

/*
 * The store's shape: every slice's interface, side by side. This module imports no slice (each slice imports
 * it), so the store's modules form no circle.
 */

export interface QueueSlice {
  view: QueueView;
  search: string;
  /** Sources matching the view and search; null until the first page answered. */
  rowCount: number | null;
  /** Loaded pages by page number; only pages near the visible rows are kept. */
  pages: Readonly<Record<number, readonly SourceRow[]>>;
  /** Bumped whenever the view or search changes: answers to older requests are dropped. */
  queueGeneration: number;
  queueError: string | null;
  setView(view: QueueView): void;
  setSearch(search: string): void;
  /**
   * The virtualizer shows rows start..end: load their pages, forget far ones. Called on every scroll that
   * changes the range, so it changes the store only when a page is dropped (no render per scroll).
   */
  showRows(start: number, end: number): void;
  /** Many jobs changed: fetch the pages in view again (what is shown stays until they answer). */
  refetchPages(): void;
  /** One job changed: patch it in place, or refetch when it joined or left the view. */
  patchJob(job: JobView): void;
}

export interface TotalsSlice {
  totals: QueueTotals | null;
  setTotals(totals: QueueTotals): void;
  refreshTotals(): Promise<void>;
  pauseQueue(): Promise<void>;
  resumeQueue(): Promise<void>;
}

export interface SettingsSlice {
  settings: Settings | null;
  settingsError: ContractError | null;
  setSettingsValue(settings: Settings): void;
  loadSettings(): Promise<void>;
  /** Saves a change; answers the error (in words, with the field at fault) or null. */
  saveSettings(patch: SettingsPatch): Promise<ContractError | null>;
}

export interface LanguagesSlice {
  languages: readonly Language[];
  languagesFrom: Languages['from'] | null;
  loadLanguages(): Promise<void>;
}

export type BulkAction = 'retry' | 'cancel' | 'pause' | 'resume' | 'clear';

export interface SelectionSlice {
  /** Selected rows: source -> the ids of its jobs shown when it was selected. */
  selected: Readonly<Record<string, readonly number[]>>;
  /** The row keyboard actions apply to. */
  cursor: number;
  /** In that row, the chip or button the arrows are on (its place among the row's items); null: the row. */
  cursorItem: number | null;
  /**
   * Ctrl+A over more rows than are loaded: every row of the view is selected, and actions go to the engine
   * as this filter (its `selected` holds the rows loaded, for what the page shows).
   */
  allOf: JobFilter | null;
  /** Where a shift-click range starts. */
  anchor: number | null;
  selectRow(index: number, mode: 'only' | 'toggle' | 'range'): void;
  setCursor(index: number, item?: number | null): void;
  /** Every row of the view (Ctrl+A). */
  selectAll(): void;
  clearSelection(): void;
  /**
   * Runs a bulk action on jobs (the selection when no ids are given). Cancel of live jobs and clear ask
   * first, with the count; answers what changed, or null when the user said no or it failed.
   */
  bulk(action: BulkAction, jobs?: readonly JobView[]): Promise<ActionResult | null>;
  /** Clears every completed job from the list (after a confirm with the count); no file is touched. */
  clearDone(): Promise<void>;
  /** Queues every failed job again (a dub already made is never paid twice). */
  retryAllFailed(): Promise<void>;
}

export interface AddDraftSlice {
  /** Paths (on the engine's machine) and URLs to add. */
  inputs: readonly string[];
  preset: PresetDraft;
  /** Dub again what was already dubbed with these settings. */
  again: boolean;
  /** Bytes of dropped files on their way to the engine (web mode). */
  staging: { sent: number; total: number } | null;
  stagingError: ContractError | null;
  estimate: Estimate | null;
  estimating: boolean;
  estimateError: ContractError | null;
  adding: boolean;
  addError: ContractError | null;
  /** A fresh draft from the settings' defaults (languages, outputs, folder): "Start over". */
  startDraft(): void;
  /** Opens the sheet on the draft kept from before (files picked, files sent), else on a fresh one. */
  openAddSheet(): void;
  /** Closes the sheet and keeps its draft (Escape, ✕): nothing picked or sent is thrown away by accident. */
  closeAddSheet(): void;
  addInputs(paths: readonly string[]): void;
  removeInput(path: string): void;
  setPreset(patch: Partial<PresetDraft>): void;
  setAgain(again: boolean): void;
  /** Dropped or picked browser files: staged through the bridge, then added as paths. */
  stageFiles(files: readonly BrowserFile[]): Promise<void>;
  /** Queues the batch; answers what was added, or null (the error is in `addError`). */
  submitAdd(force: boolean): Promise<AddResult | null>;
}

export interface WatchFilesView {
  folderId: number;
  total: number;
  files: readonly WatchFile[];
  error: ContractError | null;
}

export interface WatchSlice {
  folders: readonly WatchFolder[] | null;
  foldersError: ContractError | null;
  watchFiles: WatchFilesView | null;
  loadFolders(): Promise<void>;
  upsertFolder(folder: WatchFolder): void;
  dropFolder(id: number): void;
  /** Each answers the error (for the form that asked) or null. */
  addFolder(path: string, preset: WatchPresetInput): Promise<ContractError | null>;
  updateFolder(
    id: number,
    change: { preset?: WatchPresetInput; paused?: boolean },
  ): Promise<ContractError | null>;
  removeFolder(folder: WatchFolder): Promise<void>;
  approveFolder(folder: WatchFolder): Promise<void>;
  showFolderFiles(id: number | null): Promise<void>;
  reprocessFile(folderId: number, path: string): Promise<void>;
}

export interface SteeringSlice {
  presets: readonly Preset[];
  whenDone: WhenDoneState | null;
  spending: Spending | null;
  spendingError: ContractError | null;
  setPresets(presets: readonly Preset[]): void;
  setWhenDoneState(state: WhenDoneState): void;
  loadPresets(): Promise<void>;
  /** Saves (or replaces) a preset; answers the error, or null. */
  savePreset(name: string, options: PresetOptionsInput): Promise<ContractError | null>;
  deletePreset(name: string): Promise<void>;
  loadWhenDone(): Promise<void>;
  chooseWhenDone(choice: WhenDone): Promise<void>;
  cancelWhenDone(): Promise<void>;
  loadSpending(): Promise<void>;
  /** Moves jobs in the queue's order (rows dragged, Move to top / bottom). */
  moveJobs(ids: readonly number[], to: MoveTarget): Promise<void>;
}

export type Screen = 'queue' | 'watch' | 'settings' | 'spending';

export interface Notice {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

/** A question the user must answer before a destructive or costly action goes ahead. */
export interface ConfirmRequest {
  title: string;
  body: string;
  /** The button that goes ahead, worded for the action ("Cancel 12 jobs"). */
  confirmLabel: string;
  danger: boolean;
  resolve(ok: boolean): void;
}

export interface UiSlice {
  screen: Screen;
  addOpen: boolean;
  /** Jobs of a batch just added: the queue moves the keyboard to the first row holding one, then clears it. */
  focusBatch: readonly number[] | null;
  /** The job shown in the side panel. */
  openJobId: number | null;
  notices: readonly Notice[];
  confirmRequest: ConfirmRequest | null;
  /** The "N jobs resumed" banner was dismissed (nothing else happens). */
  resumedDismissed: boolean;
  /** "Enter API key" was asked for (first run): Settings opens on the service with the key field focused. */
  keyEntryRequested: boolean;
  setScreen(screen: Screen): void;
  setAddOpen(open: boolean): void;
  setFocusBatch(jobs: readonly number[] | null): void;
  openJob(id: number | null): void;
  notify(kind: Notice['kind'], text: string): void;
  dismissNotice(id: number): void;
  confirm(request: Omit<ConfirmRequest, 'resolve'>): Promise<boolean>;
  answerConfirm(ok: boolean): void;
  dismissResumed(): void;
  /** Shows Settings on the service, the key field focused. */
  requestKeyEntry(): void;
  keyEntryShown(): void;
}

/** The one store: every slice side by side. */
export type AppState = QueueSlice &
  TotalsSlice &
  SettingsSlice &
  LanguagesSlice &
  SelectionSlice &
  AddDraftSlice &
  WatchSlice &
  SteeringSlice &
  UiSlice;

/** A slice gets the bridge it talks to; the store gives it get/set over the whole state. */
export type SliceMaker<T> = (bridge: FaceBridge) => StateCreator<AppState, [], [], T>;
