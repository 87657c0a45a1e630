/**
 * A real headless Chromium for the tests, set up by `npm install` and
 * `npm test` alone on a fresh machine that reaches only npm's registry and
 * Debian's apt:
 *
 * 1. SLOGULATE_CHROMIUM, when set: that browser (and nothing else).
 * 2. The Chromium that the devDependency `@sparticuz/chromium` ships, brotli-
 *    compressed, in its npm package: unpacked once into
 *    node_modules/.cache/slogulate-chromium/<version>/ (under a temporary name,
 *    then renamed: concurrent runs are safe), if it starts here (it needs
 *    the system's NSS libraries).
 * 3. Debian's `chromium` (/usr/bin/chromium), installed with apt-get when it
 *    is absent and the tests run as root.
 *
 * When none can be had the tests fail, saying what was tried: they never
 * skip. Driven by playwright-core (no browser download of its own), started
 * headless, sandbox off, no GPU and no background networking, with a fresh
 * profile that is removed afterwards.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, chmodSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type BrowserContext } from 'playwright-core';
import { ROOT } from './helpers.js';

/** The flags every test browser starts with (this machine's network is closed; nothing may reach out). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Does the browser at `path` start (print its version)? Undefined if so, else why not. */
function startFailure(path: string): string | undefined {
  const r = spawnSync(path, ['--headless', '--no-sandbox', '--disable-gpu', '--version'], { encoding: 'utf8', timeout: 60_000 });
  if (r.error) return r.error.message;
  if (r.status !== 0) return `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' / ')}`;
  return undefined;
}

/** The npm package's Chromium, unpacked into node_modules/.cache once. */
async function npmChromium(): Promise<string> {
  const require = createRequire(import.meta.url);
  // The package's `exports` hide its package.json: find its folder from its entry point.
  let dir = dirname(require.resolve('@sparticuz/chromium'));
  let version: string | undefined;
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@sparticuz/chromium') {
      version = pkg.version;
      break;
    }
  }
  if (version === undefined) throw new Error('cannot find the package folder of @sparticuz/chromium');
  const packed = join(dir, 'bin', 'chromium.br');
  if (!existsSync(packed)) throw new Error(`no ${packed}`);
  const cacheDir = join(ROOT, 'node_modules', '.cache', 'slogulate-chromium', version);
  const target = join(cacheDir, 'chromium');
  if (!existsSync(target)) {
    mkdirSync(cacheDir, { recursive: true });
    const temp = `${target}.${process.pid}.tmp`;
    try {
      await pipeline(createReadStream(packed), createBrotliDecompress({ chunkSize: 1 << 21 }), createWriteStream(temp));
      chmodSync(temp, 0o755);
      renameSync(temp, target);
    } finally {
      rmSync(temp, { force: true });
    }
  }
  return target;
}

/** Debian's chromium, installed with apt-get when absent (as root). */
function debianChromium(): string {
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) throw new Error(`no ${SYSTEM_CHROMIUM}, and no apt-get to install it`);
  if (process.getuid?.() !== 0) throw new Error(`no ${SYSTEM_CHROMIUM}; not root, so not installing it: run \`sudo apt-get install chromium\``);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = (): ReturnType<typeof spawnSync> =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env, encoding: 'utf8', timeout: 600_000 });
  let r = install();
  if (r.status !== 0) {
    // A fresh machine's package lists may be missing or stale.
    spawnSync('apt-get', ['update'], { env, encoding: 'utf8', timeout: 600_000 });
    r = install();
  }
  if (r.status !== 0 || !existsSync(SYSTEM_CHROMIUM)) {
    throw new Error(`apt-get install chromium failed (exit ${r.status}): ${String(r.stderr ?? '').trim().split('\n').slice(-2).join(' / ')}`);
  }
  return SYSTEM_CHROMIUM;
}

let found: Promise<string> | undefined;

/** The path of a Chromium that starts here; throws, saying what was tried, when there is none. */
export function chromiumPath(): Promise<string> {
  found ??= (async () => {
    const tried: string[] = [];
    const explicit = process.env.SLOGULATE_CHROMIUM;
    if (explicit) {
      const why = startFailure(explicit);
      if (why === undefined) return explicit;
      throw new Error(`SLOGULATE_CHROMIUM=${explicit} does not start: ${why}`);
    }
    try {
      const path = await npmChromium();
      const why = startFailure(path);
      if (why === undefined) return path;
      tried.push(`@sparticuz/chromium (${path}) does not start here: ${why}`);
    } catch (err) {
      tried.push(`@sparticuz/chromium: ${(err as Error).message}`);
    }
    // Said on stderr: a person reading the test log learns why a second browser was needed.
    process.stderr.write(`browser tests: ${tried.join('; ')}; trying Debian's chromium\n`);
    try {
      const path = debianChromium();
      const why = startFailure(path);
      if (why === undefined) return path;
      tried.push(`${path} does not start: ${why}`);
    } catch (err) {
      tried.push(`Debian's chromium: ${(err as Error).message}`);
    }
    throw new Error(`no headless Chromium for the browser tests. Tried:\n- ${tried.join('\n- ')}\nInstall one (apt-get install chromium) or set SLOGULATE_CHROMIUM=/path/to/chrome.`);
  })();
  return found;
}

export interface TestBrowser {
  context: BrowserContext;
  /** The executable used. */
  executable: string;
  close(): Promise<void>;
}

/** A fresh headless browser (its own profile, removed on close). */
export async function openBrowser(): Promise<TestBrowser> {
  const executable = await chromiumPath();
  const profile = mkdtempSync(join(tmpdir(), 'slogulate-chromium-profile-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: executable,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 900 },
      // Else the headless shell takes the locale from the environment (C, POSIX: `en-US@posix`, which Intl refuses).
      locale: 'en-US',
      timeout: 60_000,
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`${executable} would not start under playwright: ${(err as Error).message}`);
  }
  return {
    context,
    executable,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
