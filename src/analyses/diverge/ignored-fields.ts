/**
 * What two nodes of one chain legitimately write differently in their
 * slogs, and is therefore left out when `diverge` compares their entries:
 * the one documented list (docs/diverge.md prints it).
 *
 * Checked against agoric-sdk's slog writers (master of 2026-08-21):
 * packages/SwingSet/src/kernel/slogger.js (`time`, `monotime` on every
 * entry; `seconds` on every `-finish` of a span), vat-loader/manager-subprocess-xsnap.js
 * (`heap-snapshot-save`: swing-store snapStore.js's `compressSeconds`,
 * `dbSaveSeconds`, `archiveWriteSeconds`, and `uncompressedSizeDelta`,
 * which depends on when this node's worker last loaded a snapshot; the XS
 * worker's `dr[2].timestamps`), cosmic-swingset chain-main.js
 * (`cosmic-swingset-after-commit-stats`: `memoryUsage`, `heapStats`,
 * `heapSnapshot`, `statsTime`) and launch-chain.js (`begin-block`'s
 * `interBlockSeconds`, `afterCommitHangoverSeconds`, `blockLagSeconds`;
 * the commit's `runSeconds`, `chainTime`, `saveTime`, `cosmosCommitSeconds`,
 * `fullSaveTime`). `rawSaveSeconds` is an older snapStore's name (agoric-sdk's
 * scripts/process-integration-results.sh still deletes it).
 *
 * Besides fields, whole entries differ between nodes: bringing a vat
 * online (a page-in) happens when a node's own vat cache needs it, so the
 * entries of a page-in (PAGE_IN_TYPES and transcript replays) are left out
 * too. Two nodes that agree run the same deliveries and syscalls in the same
 * order with the same arguments and results; these are compared.
 */

export interface IgnoredField {
  /** The field's name at the top of an entry (`dr[2].timestamps` is the one nested field). */
  field: string;
  /** Which entries carry it. */
  where: string;
}

export const IGNORED_FIELDS: readonly IgnoredField[] = [
  { field: 'time', where: 'every entry (wall clock)' },
  { field: 'monotime', where: 'every entry (time since the process started)' },
  { field: 'seconds', where: 'every -finish entry (a span\'s duration)' },
  { field: 'dr[2].timestamps', where: 'deliver-result (the XS worker\'s clock)' },
  { field: 'compressSeconds', where: 'heap-snapshot-save' },
  { field: 'dbSaveSeconds', where: 'heap-snapshot-save' },
  { field: 'archiveWriteSeconds', where: 'heap-snapshot-save' },
  { field: 'rawSaveSeconds', where: 'heap-snapshot-save (older swing-store)' },
  { field: 'uncompressedSizeDelta', where: 'heap-snapshot-save (since this node\'s last load)' },
  { field: 'memoryUsage', where: 'cosmic-swingset-after-commit-stats' },
  { field: 'heapStats', where: 'cosmic-swingset-after-commit-stats' },
  { field: 'heapSnapshot', where: 'cosmic-swingset-after-commit-stats' },
  { field: 'statsTime', where: 'cosmic-swingset-after-commit-stats' },
  { field: 'interBlockSeconds', where: 'cosmic-swingset-begin-block' },
  { field: 'afterCommitHangoverSeconds', where: 'cosmic-swingset-begin-block' },
  { field: 'blockLagSeconds', where: 'cosmic-swingset-begin-block' },
  { field: 'runSeconds', where: 'cosmic-swingset-commit-block-finish' },
  { field: 'chainTime', where: 'cosmic-swingset-commit-block-finish' },
  { field: 'saveTime', where: 'cosmic-swingset-commit-block-finish' },
  { field: 'cosmosCommitSeconds', where: 'cosmic-swingset-commit-block-finish' },
  { field: 'fullSaveTime', where: 'cosmic-swingset-commit-block-finish' },
];

/** The top-level field names of IGNORED_FIELDS. */
export const IGNORED_TOP: ReadonlySet<string> = new Set(IGNORED_FIELDS.map((f) => f.field).filter((f) => !f.includes('[')));

/**
 * Entry types of a page-in (a node bringing a vat online when its own cache
 * needs it): never compared. A bare create-vat is one too (isBareCreateVat).
 */
export const PAGE_IN_TYPES: ReadonlySet<string> = new Set([
  'start-replay',
  'finish-replay',
  'vat-startup-start',
  'vat-startup-finish',
  'heap-snapshot-load',
  'start-replay-delivery',
  'finish-replay-delivery',
]);

/**
 * Where an entry other than the seven crank types sits (its crank, delivery
 * and syscall numbers): agoric-sdk's contextual slog writer moves these out
 * of such an entry into its attributes (a `console` line), so that a plain
 * slog and a contextual one of the same run differ there. The crank is
 * known by the alignment; these are left out of such entries.
 */
export const PLACE_FIELDS: ReadonlySet<string> = new Set(['crankNum', 'deliveryNum', 'syscallNum']);

/** An entry of another type without the ignored fields and its place (a shallow copy; the entry is not changed). */
export function withoutIgnored(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (!IGNORED_TOP.has(key) && !PLACE_FIELDS.has(key) && value[key] !== undefined) out[key] = value[key];
  }
  return out;
}

/** A deliver-result's `dr` without the worker's clock (`dr[2].timestamps`). */
export function drWithoutTimestamps(dr: unknown): unknown {
  if (!Array.isArray(dr)) return dr;
  const usage = dr[2] as unknown;
  if (usage === null || typeof usage !== 'object' || Array.isArray(usage) || !('timestamps' in usage)) return dr;
  const { timestamps: _clock, ...rest } = usage as Record<string, unknown>;
  return [dr[0], dr[1], rest, ...dr.slice(3)];
}
