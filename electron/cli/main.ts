import { endQuietlyOnClosedPipe } from './closed-pipe';
import { runDubdesk } from './program';

endQuietlyOnClosedPipe();
process.exitCode = await runDubdesk(process.argv.slice(2));
