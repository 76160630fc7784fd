import type { ChainAdapter } from '../adapter.js';

// What every adapter factory takes (described in index.ts), apart from the registry so that an
// adapter can name it without importing the registry that imports the adapter.

export interface AdapterOptions {
  url: string;
  apiKey?: string | undefined;
  fetch: (input: string | URL, init?: RequestInit) => Promise<Response>;
  checkHost: (host: string) => Promise<void>;
  timeoutMs: number;
  close?: (() => void) | undefined;
}

export type AdapterFactory = (opts: AdapterOptions) => ChainAdapter;
