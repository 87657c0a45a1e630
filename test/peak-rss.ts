/**
 * A child's own peak RSS, for the memory tests. Not
 * `process.resourceUsage().maxRSS`: on Linux that also counts what the
 * parent had resident when it spawned the child (a child of a 350 MB
 * process reports about 300 MB however little it uses), so a test process
 * holding much, or one that ran other test files before (vitest's
 * `isolate: false`), would hide the child's figure, or raise it over a
 * bound it keeps. `VmHWM` in /proc/self/status is the child's own; where
 * there is no /proc, maxRSS.
 *
 * PEAK_RSS_KB is module source to put at the top of the child's code: it
 * defines `peakRssKb()`, the peak in KB.
 */
export const PEAK_RSS_KB = [
  "import { readFileSync as readPeakRssStatus } from 'node:fs';",
  'const peakRssKb = () => {',
  "  try { return Number(/VmHWM:\\s+(\\d+) kB/.exec(readPeakRssStatus('/proc/self/status', 'utf8'))[1]); }",
  '  catch { return process.resourceUsage().maxRSS; }',
  '};',
  '',
].join('\n');
