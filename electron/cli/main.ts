import { runDubdesk } from './program';

process.exitCode = await runDubdesk(process.argv.slice(2));
