import { noteChange } from '../history.js';
import { HttpError } from '../http/errors.js';

/**
 * A state machine as data: `table[state][event]` is the next state. What has no row is
 * not allowed, and `transition` refuses it (409 INVALID_STATE) instead of ignoring it.
 */
export type Machine<S extends string, E extends string = string> = Readonly<Record<S, Readonly<Partial<Record<E, NoInfer<S>>>>>>;

/** Whether the table has a row for `event` in `from`: what transition() would accept, without throwing. */
export function canTransition<S extends string, E extends string>(machine: Machine<S, E>, from: NoInfer<S>, event: NoInfer<E>): boolean {
  return machine[from]?.[event] !== undefined;
}

/** The next state; states and events are inferred from the table, so a misspelt event does not compile. */
export function transition<S extends string, E extends string>(machine: Machine<S, E>, from: NoInfer<S>, event: NoInfer<E>): S {
  const next = machine[from]?.[event];
  if (next === undefined) {
    throw new HttpError(409, 'INVALID_STATE', `cannot ${event.replace(/_/g, ' ')} when status is ${from}`);
  }
  return next;
}

/**
 * Moves `record` by `event` through the table and notes the change, at clock time `at` (ms),
 * in its history (../history.ts); an event that keeps the status (a retry) is noted too.
 * A state kept inside another record (a merchant's `kyb`) is noted in that one's history,
 * under `noteOn.field`.
 */
export function moveRecord<S extends string, E extends string>(
  machine: Machine<S, E>,
  record: { status: S },
  event: NoInfer<E>,
  at: number,
  noteOn: { record: object; field: string } = { record, field: 'status' },
): S {
  const from = record.status;
  record.status = transition(machine, from, event);
  noteChange(noteOn.record, { field: noteOn.field, from, to: record.status, event, at });
  return record.status;
}
