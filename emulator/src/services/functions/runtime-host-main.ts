import { startRuntimeHost } from './runtime-host.ts';

// Entry of a function runtime process (see pool.ts).
startRuntimeHost(process.argv.slice(2));
