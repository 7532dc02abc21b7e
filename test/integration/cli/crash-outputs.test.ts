import { describeCrashes } from './crash-run';

// kill -9 at seeded moments, resumed each time: upload once, and every output (the languages of one source
// share the original, its audio, subtitles and poster).
describeCrashes([
  ['v2', 24, true, 'default'],
  ['v2', 25, false, 'all'],
  ['v1', 26, false, 'all'],
]);
