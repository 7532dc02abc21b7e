/**
 * The sandbox in a process of its own for the benchmarks, so its work never counts as the client's.
 * Argument: the sandbox options as JSON. Prints `base URL <url>` once it listens.
 */
import { startSandbox } from '../../electron/sandbox/server';

const sb = await startSandbox(JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>);
process.stdout.write(`base URL ${sb.baseUrl}\n`);
const stop = () => void sb.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
