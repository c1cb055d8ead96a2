// tanbo-client: the reference JavaScript client of Tanbo Server (docs/clients/javascript.md).
// Its types: src/client.d.ts.
export {TanboClient, TanboEvent} from './tanbo-client.js';
export {TanboError, CLIENT_CODES} from './errors.js';
export {memoryStorage, browserStorage, fileStorage, defaultStorage} from './storage.js';
