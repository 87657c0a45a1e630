/**
 * `messages` (SQLite `message`): one row per message and notification a
 * vat received, with what queued it (src/analyses/why/, docs/why.md): the
 * `send` syscall of a message, the `resolve` of a notification (the
 * resolving crank as the sender), or nothing in the slog (the run's
 * trigger, the kernel or a device, or before the slog). Found as the slog
 * streams, keeping only what is in flight; a crank a restart ran again
 * counts once, as it ran the second time.
 */
import { CAUSE_READS, CauseFinder } from '../../analyses/why/cause-finder.js';
import type { TableDef } from '../schema.js';

export interface MessageRow {
  sendCrank: number | null;
  sendVat: string | null;
  syscallNum: number | null;
  cause: string;
  trigger: string | null;
  target: string | null;
  method: string | null;
  resultPromise: string | null;
  deliverCrank: number;
  deliverVat: string | null;
  blockNum: number | null;
  queueMicros: number | null;
}

export const messages: TableDef<MessageRow> = {
  name: 'messages',
  sqliteName: 'message',
  reads: CAUSE_READS,
  optIn: true,
  doc: 'one row per message and notification a vat received, with the syscall that queued it (docs/why.md)',
  columns: [
    { name: 'sendCrank', type: 'BIGINT', nullable: true, doc: 'the crank whose syscall queued it (a notification: the resolving crank); null when no crank of the slog did (`cause`)' },
    { name: 'sendVat', type: 'VARCHAR', nullable: true, doc: 'that crank\'s vat' },
    { name: 'syscallNum', type: 'BIGINT', nullable: true, doc: 'the syscall\'s number in its crank, from 0' },
    { name: 'cause', type: 'VARCHAR', nullable: false, doc: '`send`, `resolve`, `subscribe` (a subscription to a promise already resolved), `outside` (the run\'s trigger, the kernel or a device) or `before-slog`' },
    { name: 'trigger', type: 'VARCHAR', nullable: true, doc: 'for `outside` in a chain run: the run\'s trigger (`bridge wallet WALLET_SPEND_ACTION`, `timer`, as `runs` names it)' },
    { name: 'target', type: 'VARCHAR', nullable: true, doc: 'a message\'s target; a notification\'s (first) promise' },
    { name: 'method', type: 'VARCHAR', nullable: true, doc: 'a message\'s method, as the render prints it; null for a notification' },
    { name: 'resultPromise', type: 'VARCHAR', nullable: true, doc: 'a message\'s result promise, if any' },
    { name: 'deliverCrank', type: 'BIGINT', nullable: false, doc: 'the crank that delivered it (`deliveries.crankNum`)' },
    { name: 'deliverVat', type: 'VARCHAR', nullable: true, doc: 'the vat that received it' },
    { name: 'blockNum', type: 'BIGINT', nullable: true, doc: 'the chain block height of the delivering crank; null outside blocks' },
    { name: 'queueMicros', type: 'BIGINT', nullable: true, doc: 'from the queuing syscall to the delivering crank\'s start, whole µs; null without a sending crank' },
  ],
  sqliteIndexes: [['deliverCrank'], ['sendCrank']],
  rows(_ctx, emit) {
    const finder = new CauseFinder();
    return {
      entry(entry) {
        finder.entry(entry);
      },
      crank(crank, _deliveries, abandoned) {
        // The execution that counts is the one after the restart: an abandoned one changed nothing.
        if (abandoned) return;
        const found = finder.crank(crank);
        if (!found || (found.delivery !== 'message' && found.delivery !== 'notify')) return;
        const cause = found.cause;
        const sent = cause.crank >= 0;
        emit({
          sendCrank: sent ? cause.crank : null,
          sendVat: sent ? (cause.vat ?? null) : null,
          syscallNum: sent && cause.syscallNum >= 0 ? cause.syscallNum : null,
          cause: cause.kind,
          trigger: cause.trigger ?? null,
          target: found.target ?? null,
          method: found.delivery === 'message' ? (found.method ?? null) : null,
          resultPromise: found.result ?? null,
          deliverCrank: found.crankNum,
          deliverVat: found.vatID ?? null,
          blockNum: crank.block?.height ?? null,
          queueMicros: found.queueMicros ?? null,
        });
      },
    };
  },
};
