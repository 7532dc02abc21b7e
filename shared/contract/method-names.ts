/**
 * The contract's method names, without their schemas: what the sandboxed preload needs to build
 * `window.dubdesk`, and all it loads on every page load (zod and every schema stay in the main process).
 * methods.ts checks at compile time that its table has exactly these names.
 */
export const METHOD_NAMES = [
  'appInfo',
  'languages',
  'account',
  'testKey',
  'estimate',
  'add',
  'estimateAgain',
  'dubAgain',
  'listJobs',
  'listSources',
  'getJob',
  'jobLog',
  'retryJobs',
  'cancelJobs',
  'pauseJobs',
  'resumeJobs',
  'clearJobs',
  'packageNow',
  'judgeQc',
  'totals',
  'pauseQueue',
  'resumeQueue',
  'getSettings',
  'setSettings',
  'listWatchFolders',
  'addWatchFolder',
  'updateWatchFolder',
  'removeWatchFolder',
  'listWatchFiles',
  'approveWatchFolder',
  'reprocessWatchFile',
  'rescanWatchFolder',
  'moveJobs',
  'listPresets',
  'savePreset',
  'deletePreset',
  'spending',
  'whenDone',
  'setWhenDone',
  'cancelWhenDone',
] as const;

export type MethodName = (typeof METHOD_NAMES)[number];
