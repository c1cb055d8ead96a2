// The WebSocket class: the global one (browsers, Node 22+), else the `ws` package on Node.

/** @returns {Promise<import('./client.js').WebSocketClass>} */
export async function webSocketClass() {
  if (typeof globalThis.WebSocket === 'function') return globalThis.WebSocket;
  const ws = await import('ws');
  return /** @type {import('./client.js').WebSocketClass} */ (/** @type {unknown} */ (ws.default));
}
