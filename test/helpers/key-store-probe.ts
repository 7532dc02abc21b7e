/** Run inside a D-Bus session: says where the key store of a data folder keeps its key, as the app sees it. */
import { systemKeyStore } from '../../electron/engine/index';

const home = process.argv[2] ?? '';
const store = await systemKeyStore({ home, fileFallback: 'ask' });
process.stdout.write(JSON.stringify({ kind: store.kind, key: store.get(), storage: store.storage() }));
