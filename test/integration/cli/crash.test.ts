import { describeCrashes } from './crash-run';

// kill -9 at seeded moments, resumed each time: the default outputs over each generation.
describeCrashes([
  ['v2', 21, false, 'default'],
  ['v1', 22, false, 'default'],
  ['legacy', 23, false, 'default'],
]);
