// A refusal, typed: the server's `error` reply (its `code` is one of docs/protocol.md's "Errors"),
// or one of the client's own codes for a request that got no answer.

/** The codes the client itself gives, beside the server's. */
export const CLIENT_CODES = Object.freeze({
  /** the connection dropped before the answer came: the request may or may not have taken effect */
  disconnected: 'disconnected',
  /** the client was closed by its owner */
  closed: 'closed',
  /** no answer within the time asked for (see TanboClient#next) */
  timeout: 'timeout',
});

export class TanboError extends Error {
  /**
   * @param {string} code the server's error code, or one of CLIENT_CODES
   * @param {string} message for people; match `code`, never this
   * @param {import('./client.js').ErrorMessage | null} [reply] the server's `error` message, if any
   */
  constructor(code, message, reply = null) {
    super(`${code}: ${message}`);
    this.name = 'TanboError';
    /** @type {string} */
    this.code = code;
    /** @type {import('./client.js').ErrorMessage | null} */
    this.reply = reply;
    /** @type {import('./client.js').Problem[]} `bad_option`'s refused fields */
    this.problems = reply?.problems ?? [];
    /**
     * For `unknown_outcome`: the `resumed` reply the client got after it, when the room
     * answered (its `state` was dispatched just after).
     * @type {import('./client.js').ResumedMessage | null}
     */
    this.resumed = null;
  }
}
