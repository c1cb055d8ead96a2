// Where the identity token is kept between runs: a small key-value interface, with a file on
// Node, localStorage in a browser, and memory for a client that should forget.

/** @returns {import('./client.js').TokenStorage} */
export function memoryStorage() {
  /** @type {Map<string, string>} */
  const values = new Map();
  return {
    get: async (key) => values.get(key) ?? null,
    set: async (key, value) => { values.set(key, value); },
    remove: async (key) => { values.delete(key); },
  };
}

/**
 * localStorage (a browser's), each key under a prefix.
 * @param {string} [prefix]
 * @returns {import('./client.js').TokenStorage}
 */
export function browserStorage(prefix = 'tanbo-client.') {
  const store = globalThis.localStorage;
  return {
    get: async (key) => store.getItem(prefix + key),
    set: async (key, value) => { store.setItem(prefix + key, value); },
    remove: async (key) => { store.removeItem(prefix + key); },
  };
}

/**
 * A JSON file of keys and values (Node only), written whole through a temporary file and a
 * rename, so a run stopped mid-write leaves the previous file. The file holds secrets: it is
 * created readable by its owner only.
 * @param {string} path
 * @returns {import('./client.js').TokenStorage}
 */
export function fileStorage(path) {
  /** @type {Promise<unknown>} one write after another */
  let queue = Promise.resolve();
  const fs = () => import('node:fs/promises');
  /** @returns {Promise<Record<string, string>>} */
  async function read() {
    try {
      return JSON.parse(await (await fs()).readFile(path, 'utf8'));
    } catch (err) {
      if (err.code === 'ENOENT') return {};
      throw err;
    }
  }
  /** @param {(values: Record<string, string>) => void} change */
  function update(change) {
    const next = queue.then(async () => {
      const {writeFile, rename} = await fs();
      const values = await read();
      change(values);
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(values, null, 2)}\n`, {mode: 0o600});
      await rename(tmp, path);
    });
    queue = next.catch(() => {});
    return next;
  }
  return {
    get: async (key) => { await queue; return (await read())[key] ?? null; },
    set: (key, value) => update((values) => { values[key] = value; }),
    remove: (key) => update((values) => { delete values[key]; }),
  };
}

/**
 * The storage a client uses when given none: localStorage in a browser, else a file in the
 * home directory (TANBO_IDENTITY_FILE overrides its path).
 * @returns {Promise<import('./client.js').TokenStorage>}
 */
export async function defaultStorage() {
  if (globalThis.localStorage) return browserStorage();
  const {homedir} = await import('node:os');
  const {join} = await import('node:path');
  return fileStorage(process.env.TANBO_IDENTITY_FILE || join(homedir(), '.tanbo-client.json'));
}
