// Bot accounts, their access tokens and their games on one server (test/bot-accounts.mjs).
import {botAccountTests} from '../bot-accounts.mjs';
import {serverUrl} from '../support.mjs';

botAccountTests(serverUrl(), serverUrl());
