// Bot accounts across a cluster (test/bot-accounts.mjs): each program on the second node, the
// accounts made and the tokens revoked through the first.
import {botAccountTests} from '../bot-accounts.mjs';
import {serverUrl} from '../support.mjs';

botAccountTests(serverUrl(), serverUrl('TANBO_URL2'));
