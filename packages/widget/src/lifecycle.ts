/**
 * The flow `open()` starts, as a transition table: `LIFECYCLE[state][event]` is the next state.
 * An event with no row in the current state is ignored, as the element always did: a second
 * click while opening starts nothing, a close with nothing open closes nothing. (The mock
 * server's machines refuse such an event with a 409; here it is no error, just nothing to do.)
 *
 * The transaction's end is not a state of the element: `completed` or a failed transaction
 * settles `open()`'s promise, and the dialog or popup stays until it is closed. Closed is idle
 * again (the transaction is then polled, until it ends or the next `open`), and so is a
 * redirect, as the page is leaving.
 *
 * A flow keeps the `mode` it started with: `blocked` is popup mode's, and its Continue shows a
 * popup even if the page switched to `redirect` meanwhile (there is no `redirect` row for it to
 * miss); the page's new mode takes effect on the next `open`.
 */

/** Where the flow is: the button is busy while `opening`, Continue shows while `blocked`, the dialog (iframe mode) while `open`. */
export type State = 'idle' | 'opening' | 'blocked' | 'open';

export const LIFECYCLE = {
  /** `open`: open() or the button. */
  idle: { open: 'opening' },
  /**
   * Your backend is asked for the session. Then the iframe or popup `show`s it, the page
   * leaves for it (`redirect`), the browser `block`s the popup (the promise stays pending), or
   * there is no session (`fail`: open() rejects with `session_failed`).
   */
  opening: { show: 'open', redirect: 'idle', block: 'blocked', fail: 'idle' },
  /** The session exists: Continue (or open(), in a click) `show`s the popup for it. */
  blocked: { show: 'open' },
  /** `close`: close(), the close button, Escape (in the dialog or the page inside), the popup closed, the element removed. */
  open: { close: 'idle' },
} as const satisfies Record<State, Record<string, State>>;

/** What moves the flow: an event of some row of the table. */
export type LifecycleEvent = { [S in State]: keyof (typeof LIFECYCLE)[S] }[State];
