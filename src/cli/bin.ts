/** Entry point of bin/slogulate. */
import { main } from './main.js';

await main();
