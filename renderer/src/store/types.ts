import type { StateCreator } from 'zustand';
import type { FaceBridge } from '../../../shared/face';
import type { AddDraftSlice } from './add-draft';
import type { LanguagesSlice } from './languages';
import type { QueueSlice } from './queue';
import type { SelectionSlice } from './selection';
import type { SettingsSlice } from './settings';
import type { TotalsSlice } from './totals';
import type { UiSlice } from './ui';
import type { WatchSlice } from './watch';

/** The one store: every slice side by side. */
export type AppState = QueueSlice &
  TotalsSlice &
  SettingsSlice &
  LanguagesSlice &
  SelectionSlice &
  AddDraftSlice &
  WatchSlice &
  UiSlice;

/** A slice gets the bridge it talks to; the store gives it get/set over the whole state. */
export type SliceMaker<T> = (bridge: FaceBridge) => StateCreator<AppState, [], [], T>;
