/**
 * Each record's state changes with the clock time of each, for the dashboard (`/_mock/`) and
 * tests that ask how a record got where it is. Kept beside the records, not in them: a
 * WeakMap keyed by the record object, so the store's shapes (and what the APIs show of them)
 * stay as they are, a `reset()` drops the histories with the records, and noting a change
 * costs one push.
 */

/** One state change. `field` names what changed when a record has more than one state (a merchant's `kyb`). */
export interface Change {
  field: string;
  from: string;
  to: string;
  /** The machine's event (e.g. `prompt_approved`), or what set it (`review`, `control`). */
  event: string;
  /** Clock time, ms since the epoch. */
  at: number;
}

const histories = new WeakMap<object, Change[]>();

/** Notes a change of `record` (its `status` unless `field` says otherwise). */
export function noteChange(record: object, change: Omit<Change, 'field'> & { field?: string }): void {
  const entry: Change = { field: change.field ?? 'status', from: change.from, to: change.to, event: change.event, at: change.at };
  const list = histories.get(record);
  if (list) list.push(entry);
  else histories.set(record, [entry]);
}

/** Sets `record.status` to `to` and notes the change (nothing when it stays the same, e.g. a retry within a status). */
export function setStatus<S extends string>(record: { status: S }, to: S, event: string, at: number): void {
  const from = record.status;
  record.status = to;
  if (from !== to) noteChange(record, { from, to, event, at });
}

/** The changes noted for `record`, oldest first. */
export function historyOf(record: object): readonly Change[] {
  return histories.get(record) ?? [];
}
