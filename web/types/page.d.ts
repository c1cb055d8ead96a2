// The page's additions to the browser's types, for the type check (tools/web-check): no code.
import type {Problem} from './protocol';

declare global {
  // A refused request, over the WebSocket (conn.js) or HTTP (account.js), is an Error carrying
  // the server's stable code; the page matches the code, never the text.
  interface Error {
    /** a string of the protocol's (or `disconnected`); a number on a DOMException */
    code?: string | number;
    /** bad_message: the members the server refused */
    problems?: Problem[];
    /** an account's deletion refused while it holds seats: those rooms */
    rooms?: string[];
  }
  interface Window {
    /** the page's state, for the curious and for the browser tests (app.js) */
    tanbo?: unknown;
    /** Safari before 14.1 */
    webkitAudioContext?: typeof AudioContext;
  }
}

// Connection's events carry their message in `detail` (CustomEvent).
declare module '../conn.js' {
  interface Connection {
    addEventListener(type: string, listener: (e: CustomEvent) => void, options?: boolean | AddEventListenerOptions): void;
    addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  }
}
