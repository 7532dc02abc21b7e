import type { FaceBridge } from '../../shared/face';
import { Banners } from './components/Banners';
import { ConfirmDialog } from './components/ConfirmDialog';
import { Header } from './components/Header';
import { JobPanel } from './components/JobPanel';
import { Notices } from './components/Notices';
import { Sidebar } from './components/Sidebar';
import { WhenDoneCountdown } from './components/WhenDoneMenu';
import { SpendingScreen } from './screens/SpendingScreen';
import { useShellEvents } from './components/useShellEvents';
import { useShortcuts } from './components/useShortcuts';
import { useWindowDrop } from './components/useWindowDrop';
import { AddSheet } from './screens/AddSheet';
import { FirstRun } from './screens/FirstRun';
import { QueueScreen } from './screens/QueueScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { WatchScreen } from './screens/WatchScreen';
import { BridgeContext, StoreContext, useApp, type AppStore } from './store';

function Shell({ store, bridge }: { store: AppStore; bridge: FaceBridge }) {
  const screen = useApp((s) => s.screen);
  const panelOpen = useApp((s) => s.openJobId !== null && s.screen === 'queue');
  useShortcuts(store);
  useShellEvents(store, bridge);
  const dragging = useWindowDrop(store, bridge);
  return (
    <div className={`app ${panelOpen ? 'with-panel' : ''}`}>
      <Header />
      <WhenDoneCountdown />
      <Banners />
      <div className="app-body">
        <Sidebar />
        <main className="main">
          {screen === 'queue' && <QueueScreen />}
          {screen === 'watch' && <WatchScreen />}
          {screen === 'settings' && <SettingsScreen />}
          {screen === 'spending' && <SpendingScreen />}
        </main>
        {panelOpen && <JobPanel />}
      </div>
      {dragging && screen !== 'watch' && (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop to add to the queue</p>
        </div>
      )}
      <AddSheet />
      <FirstRun />
      <ConfirmDialog />
      <Notices />
    </div>
  );
}

/** The whole app over one bridge and its store (boot.tsx connects the store to the bridge's events). */
export function App({ bridge, store }: { bridge: FaceBridge; store: AppStore }) {
  return (
    <BridgeContext.Provider value={bridge}>
      <StoreContext.Provider value={store}>
        <Shell store={store} bridge={bridge} />
      </StoreContext.Provider>
    </BridgeContext.Provider>
  );
}
