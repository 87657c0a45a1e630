/**
 * The message flow, per vat: what a performance engineer used to write by
 * hand from the rendered slog (the vault-open walkthrough's "reduced" form).
 *
 *     vaultFactory: 18 cranks (3 delivery, 15 notify):
 *     7276 deliver getCollateralManager-1 (sent from walletFactory in 7260)
 *     resolve getCollateralManager-1/rp
 *     7284 notify makeInvitation-26/rp (sent in 7260, result from zoe in 7282)
 *     zoe <- makeNoEscrowSeat-31
 *
 * Each selected crank that delivers a message or a notification is listed
 * under its vat, in crank order, followed by its intervat actions (messages
 * sent, promises resolved) or `(no intervat action)`. Other deliveries
 * (startVat, bringOutYourDead, ...) are listed only when they sent or
 * resolved something. A send's target prints as the vat that exports the
 * target object, or as the promise's name when it targets a promise.
 *
 * Names come from the annotation file, else the automatic names. The lines
 * are written at the end, once the whole slog is read (names and exporters
 * are only known then); only the selected cranks' facts are kept, as
 * numbers.
 */
import type { Annotations } from '../../model/annotations.js';
import type { Crank } from '../../model/crank.js';
import { formatKref, krefKind, KIND_PROMISE, type KrefId } from '../../model/kref-ids.js';
import { Origin, type CrankFacts, type KrefModel, type MessageFacts } from '../../model/krefs.js';
import type { AutoNames } from './auto-names.js';

const ACTION_SEND = 0;
const ACTION_RESOLVE = 1;
/** Actions are kept as tuples: [ACTION_SEND, target, methodId, count, result] or [ACTION_RESOLVE, promise, 0, 0, 0]. */
const TUPLE = 5;

interface FlowCrank {
  crankNum: number;
  delivery: string;
  aborted: boolean;
  message: MessageFacts | undefined;
  notified: Int32Array;
  actions: Int32Array;
}

/** A name for each kref, vat and message, as the flow prints them. */
export class FlowNames {
  constructor(
    readonly model: KrefModel,
    readonly auto: AutoNames,
    readonly annotations: Annotations,
  ) {}

  /** The annotated name, else the automatic one, else `@kp40`. */
  kref(id: KrefId): string {
    return this.auto.shown(id, this.annotations);
  }

  vat(vatID: string | undefined): string {
    return this.auto.vatName(vatID);
  }

  /**
   * A message's name: its result promise's annotated name without `/rp`
   * (`provideSmartWallet/rp alice` -> `provideSmartWallet alice`), else
   * `${method}-${NN}`.
   */
  message(methodId: number, count: number, result: KrefId): string {
    const named = result >= 0 ? this.annotations.kernelRefs.get(formatKref(result)) : undefined;
    const m = named === undefined ? null : /^(.*?)\/rp(?=$|\s)(.*)$/.exec(named);
    if (m) return `${m[1] ?? ''}${m[2] ?? ''}`;
    return this.auto.messageName(methodId, count);
  }

  /** Where a send went: the exporting vat of an object, the name of a promise. */
  target(id: KrefId): string {
    if (id < 0) return '<no target>';
    if (krefKind(id) === KIND_PROMISE) return this.kref(id);
    const owner = this.model.facts(id)?.owner;
    return owner === undefined ? this.kref(id) : this.vat(owner);
  }

  /** `sent from walletFactory in 7260`, or who else sent it. */
  sentFrom(message: MessageFacts): string {
    if (message.sentCrank >= 0) return `sent from ${this.vat(this.model.vats.get(message.sentVat))} in ${message.sentCrank}`;
    return this.model.fromKernelStart ? 'sent by the kernel' : 'sent by the kernel or before the slog';
  }

  /** `makeInvitation-26/rp (sent in 7260, result from zoe in 7282)` */
  notified(id: KrefId): string {
    const f = this.model.facts(id);
    if (!f) return this.kref(id);
    let made: string;
    switch (f.origin) {
      case Origin.SEND_RESULT:
        made = `sent in ${f.crank}`;
        break;
      case Origin.KERNEL_RESULT:
        made = 'sent by the kernel';
        break;
      case Origin.SEEN:
        made = `first seen in ${f.crank}`;
        break;
      default:
        made = `passed in ${f.crank}`;
    }
    const result = f.resolvedCrank >= 0 ? `result from ${this.vat(f.resolver)} in ${f.resolvedCrank}` : 'result from the kernel';
    return `${this.kref(id)} (${made}, ${result})`;
  }

  /** `resolve handleOffer-3/r/p (promise passed as part of resolution of handleOffer-3/rp)` */
  resolve(id: KrefId): string {
    const f = this.model.facts(id);
    let note = '';
    if (f?.origin === Origin.RESOLUTION) note = ` (promise passed as part of resolution of ${this.kref(f.parent)})`;
    else if (f && (f.origin === Origin.SEND_ARG || f.origin === Origin.KERNEL_ARG)) {
      note = ` (promise passed as argument of ${this.auto.messageName(f.methodId, f.count)})`;
    }
    return `resolve ${this.kref(id)}${note}`;
  }
}

export class FlowCollector {
  /** Selected cranks by vat, vats in the order their first selected crank came. */
  private readonly byVat = new Map<string, FlowCrank[]>();
  private count = 0;

  /** Keeps a crank the selection chose (the caller decides which). */
  add(crank: Crank, facts: CrankFacts): void {
    const { delivery } = facts;
    if (delivery === 'routing' || delivery === '') return;
    const main = delivery === 'message' || delivery === 'notify';
    if (!main && facts.actions.length === 0) return;
    const actions = new Int32Array(facts.aborted ? 0 : facts.actions.length * TUPLE);
    if (!facts.aborted) {
      facts.actions.forEach((a, i) => {
        const tuple =
          a.kind === 'send' ? [ACTION_SEND, a.target, a.methodId, a.count, a.result] : [ACTION_RESOLVE, a.promise, 0, 0, 0];
        actions.set(tuple, i * TUPLE);
      });
    }
    const vatID = crank.vatID ?? '?';
    let list = this.byVat.get(vatID);
    if (!list) this.byVat.set(vatID, (list = []));
    list.push({
      crankNum: crank.crankNum,
      delivery,
      aborted: facts.aborted,
      message: facts.message,
      notified: Int32Array.from(facts.notified),
      actions,
    });
    this.count += 1;
  }

  /** Number of cranks kept. */
  get size(): number {
    return this.count;
  }

  /** The flow text, one string per line; vats apart by a blank line. */
  lines(names: FlowNames): string[] {
    const out: string[] = [];
    for (const [vatID, cranks] of this.byVat) {
      if (out.length) out.push('');
      const deliveries = cranks.filter((c) => c.delivery === 'message').length;
      const notifies = cranks.filter((c) => c.delivery === 'notify').length;
      const others = cranks.length - deliveries - notifies;
      const kinds = `${deliveries} delivery, ${notifies} notify${others ? `, ${others} other` : ''}`;
      out.push(`${names.vat(vatID)}: ${cranks.length} crank${cranks.length === 1 ? '' : 's'} (${kinds}):`);
      for (const c of cranks) {
        out.push(crankLine(names, c));
        out.push(...actionLines(names, c));
      }
    }
    return out;
  }
}

function crankLine(names: FlowNames, c: FlowCrank): string {
  let what: string;
  if (c.delivery === 'message' && c.message) {
    const m = c.message;
    what = `deliver ${names.message(m.methodId, m.count, m.result)} (${names.sentFrom(m)})`;
  } else if (c.delivery === 'notify') {
    what = `notify ${[...c.notified].map((id) => names.notified(id)).join(', ')}`;
  } else {
    what = c.delivery;
  }
  const aborted = c.aborted ? ' (aborted: the kernel undid this crank)' : '';
  const label = names.annotations.crankLabels.get(c.crankNum);
  return `${c.crankNum} ${what}${aborted}${label === undefined ? '' : ` // ${label}`}`;
}

function actionLines(names: FlowNames, c: FlowCrank): string[] {
  const lines: string[] = [];
  const a = c.actions;
  for (let i = 0; i < a.length; i += TUPLE) {
    const ref = a[i + 1] as number;
    if (a[i] === ACTION_SEND) {
      lines.push(`${names.target(ref)} <- ${names.message(a[i + 2] as number, a[i + 3] as number, a[i + 4] as number)}`);
    } else {
      lines.push(names.resolve(ref));
    }
  }
  return lines.length ? lines : ['(no intervat action)'];
}
