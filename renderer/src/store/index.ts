import { createContext, useContext } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import type { FaceBridge } from '../../../shared/face';
import { createAddDraftSlice } from './add-draft';
import { createLanguagesSlice } from './languages';
import { createQueueSlice } from './queue';
import { createSelectionSlice } from './selection';
import { createSettingsSlice } from './settings';
import { createSteeringSlice } from './steering';
import { createTotalsSlice } from './totals';
import type { AppState } from './types';
import { createUiSlice } from './ui';
import { createWatchSlice } from './watch';

export type { AppState } from './types';
export type AppStore = StoreApi<AppState>;

export function createAppStore(bridge: FaceBridge): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createQueueSlice(bridge)(...a),
    ...createTotalsSlice(bridge)(...a),
    ...createSettingsSlice(bridge)(...a),
    ...createLanguagesSlice(bridge)(...a),
    ...createSelectionSlice(bridge)(...a),
    ...createAddDraftSlice(bridge)(...a),
    ...createWatchSlice(bridge)(...a),
    ...createSteeringSlice(bridge)(...a),
    ...createUiSlice(bridge)(...a),
  }));
}

export const StoreContext = createContext<AppStore | null>(null);
export const BridgeContext = createContext<FaceBridge | null>(null);

function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp outside <StoreContext>');
  return store;
}

/** A narrow selector over the one store: the component re-renders only when what it picked changes. */
export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(useAppStore(), selector);
}

/** The store itself, for actions read at event time (`store.getState().bulk(...)`). */
export function useAppApi(): AppStore {
  return useAppStore();
}

export function useBridge(): FaceBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge outside <BridgeContext>');
  return bridge;
}
