// Checks what a finished game reveals (docs/fairness.md): SHA-256(seed) equals the commitment,
// and the first-seat draw re-derived from the seed's HMAC-SHA256 stream.
function bytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; ++i) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}
function hex(buf) {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function sha256Hex(seedHex) {
  return hex(await crypto.subtle.digest('SHA-256', bytes(seedHex)));
}

// The first `count` 32-bit words of the DRBG: block i = HMAC-SHA256(seed, "tanbo-drbg" || be64(i)).
async function words(seedHex, count) {
  const key = await crypto.subtle.importKey('raw', bytes(seedHex), {name: 'HMAC', hash: 'SHA-256'},
                                            false, ['sign']);
  const out = [];
  for (let block = 0; out.length < count; ++block) {
    const msg = new Uint8Array(18);
    msg.set(new TextEncoder().encode('tanbo-drbg'));
    new DataView(msg.buffer).setBigUint64(10, BigInt(block));
    const view = new DataView(await crypto.subtle.sign('HMAC', key, msg));
    for (let i = 0; i < 32; i += 4) out.push(view.getUint32(i));
  }
  return out;
}

// below(n) by rejection sampling, as the server draws it.
export async function firstDraw(seedHex, players) {
  const limit = 2 ** 32 - (2 ** 32 % players);
  for (const x of await words(seedHex, 64))
    if (x < limit) return x % players;
  return null;
}
