/** Entry point of bin/slogulate: the command line, from the bundle when there is one (start.ts). */
import { start } from './start.js';

await start();
