// Accounts for the tests, made as docs/bots-write.md asks a bot's owner to: claimed over the
// WebSocket, logged in over HTTP for a session's token, marked as a bot, given an access token.
import {randomBytes} from 'node:crypto';
import {guest} from './support.mjs';

/** The first node's HTTP base (tests/clients/with-server.py); a cluster's nodes share accounts. */
function httpBase() {
  const base = process.env.TANBO_HTTP;
  if (!base) throw new Error('TANBO_HTTP is not set: run the tests through tests/clients/with-server.py');
  return base;
}

/**
 * One call to the HTTP API: its JSON answer; an error status throws, naming the error's code.
 * @param {string} method @param {string} path @param {{bearer?: string, body?: unknown}} [request]
 * @returns {Promise<any>}
 */
export async function http(method, path, {bearer, body} = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const answer = await fetch(`${httpBase()}${path}`, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const json = await answer.json();
  if (!answer.ok) throw Object.assign(new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(json)}`), {code: json.error?.code});
  return json;
}

/**
 * A new account, claimed by a guest named `name` and a few random characters: its player id, its
 * username and a session's token. The claiming connection is closed, as its owner's would be: in
 * a cluster a challenge goes to the connections of one node only, which might be that one's.
 * @param {string} name @param {{bot?: boolean}} [options] `bot`: marked as a bot (become_bot)
 */
export async function makeAccount(name, {bot = false} = {}) {
  const unique = randomBytes(3).toString('hex');
  const username = `${name}${unique}`;
  const password = `${unique} plays on and on`;
  const client = await guest({name: `${name} ${unique}`});
  try {
    await client.request({type: 'claim', username, password});
    if (bot) await client.becomeBot();
  } finally {
    client.close();
  }
  const {token: session} = await http('POST', '/api/login', {body: {username, password}});
  return {id: client.player.id, username, session};
}

/**
 * A new personal access token of the account: the token, said this once, and its id.
 * @param {string} session @returns {Promise<{token: string, id: string}>}
 */
export async function makeAccessToken(session, name = "the test's program") {
  const made = await http('POST', '/api/me/tokens', {bearer: session, body: {name}});
  return {token: made.token, id: made.tokens.find((/** @type {{name: string}} */ t) => t.name === name).id};
}

/** @param {string} session @param {string} id */
export function revokeAccessToken(session, id) {
  return http('DELETE', `/api/me/tokens/${id}`, {bearer: session});
}
