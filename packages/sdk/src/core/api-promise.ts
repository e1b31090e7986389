/**
 * `withResponse()` on the promise a resource method returns, as openai-node has it: the
 * parsed result together with the HTTP answer it came from and its request id.
 *
 * ```ts
 * const { data, requestId, response } = await checkout.payments.create(params).withResponse();
 * ```
 */
import { SikarampError } from './errors.js';

/** A successful call's result, its answer (status and headers; the body, already read into `data`, is not readable again) and request id. */
export interface WithResponse<T> {
  data: T;
  response: Response;
  /** `meta.request_id` of the body, else the `X-Request-Id` header. */
  requestId: string | undefined;
}

/** The promise of a resource method: awaits like any promise, and `withResponse()` adds the answer. */
export interface APIPromise<T> extends Promise<T> {
  /** Resolves once the call succeeded; rejects as the call does. */
  withResponse(): Promise<WithResponse<T>>;
}

/** A resource whose methods' promises are typed as {@link APIPromise}; still assignable to the resource's class. */
export type WithResponses<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => Promise<infer T> ? (...args: A) => APIPromise<T> : R[K];
} & R;

/** Types a resource as {@link WithResponses}: its constructor (core/resource.ts) already gave each method withResponse(). */
export const withResponses = <R>(resource: R): WithResponses<R> => resource as WithResponses<R>;

/** What a call hands to the promise it runs under: its last successful answer. */
export type ResponseSink = (response: Response, requestId: string | undefined) => void;

/** Makes `promise` an APIPromise whose answer is the last one `capture` was given. */
export function toAPIPromise<T>(promise: Promise<T>, answer: () => { response: Response; requestId: string | undefined } | undefined): APIPromise<T> {
  return Object.assign(promise, {
    async withResponse(): Promise<WithResponse<T>> {
      const data = await promise;
      const received = answer();
      // A method whose request starts after an await of its own (a wait, a page walk) has no single answer.
      if (!received) throw new SikarampError('withResponse() is not available for this method: it made no single request of its own');
      return { data, ...received };
    },
  });
}
