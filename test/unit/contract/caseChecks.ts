// What the contract case files check an answer with, given what the generated server sent: kept
// here once so that every family's cases read a served body, a list page and the fields kept as
// sent the same way. Imports no case list (clientOperations spreads them in: no import cycle).
import * as assert from 'node:assert/strict';
import type { BuildClient, Page, PlatformClient } from '../../../src/api';
import type { Exchange } from '../../contract/contractServers';

export type Json = Record<string, unknown>;

/** The shape of clientOperations' OperationCase, for the platform client only. */
export interface PlatformCase {
  name: string;
  operation: string;
  run(c: { platform: PlatformClient }): Promise<unknown>;
  check(result: unknown, sent: Exchange[]): void;
}

/** A case of the build client's operations (buildOperations.ts). */
export interface BuildCase {
  name: string;
  operation: string;
  run(b: BuildClient): Promise<unknown>;
  check(result: unknown, sent: Exchange[]): void;
}

/** The JSON body served to the last request ({} for an empty one). */
export const served = (sent: Exchange[]): Json => {
  const text = sent[sent.length - 1]?.responseText ?? '';
  return text ? (JSON.parse(text) as Json) : {};
};

/** The JSON body of the last request sent ({} when it had none). */
export const sentBody = (sent: Exchange[]): Json => (sent[sent.length - 1]?.requestBody ?? {}) as Json;

export const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** A page's items as served: `items`, or `data` where the operation names them so. */
export const listItems = (b: unknown): Json[] => arr((b as Json).items ?? (b as Json).data);

/**
 * Every served item (`pick` of the served body) is read and none set aside; with `key`, that
 * field of each item (or what the function picks from it) is as sent.
 */
export function listOf(pick: (body: unknown) => unknown[], key?: string | ((item: Json) => unknown)) {
  const field = typeof key === 'string' ? (it: Json) => it[key] : key;
  return (result: unknown, sent: Exchange[]): void => {
    const page = result as Page<Json>;
    const items = pick(served(sent)) as Json[];
    assert.deepEqual(page.invalid ?? [], [], 'no served item set aside');
    assert.equal(page.items.length, items.length, 'every served item is shown');
    const what = (i: number) => (typeof key === 'string' ? `item ${i} ${key}` : `item ${i}`);
    if (field) page.items.forEach((it, i) => assert.deepEqual(field(it), field(items[i]!), what(i)));
  };
}

/** The answer's `keys` are as served. */
export const same =
  (...keys: string[]) =>
  (result: unknown, sent: Exchange[]): void => {
    const body = served(sent);
    for (const k of keys) assert.deepEqual((result as Json)[k], body[k], `${k} as sent`);
  };

/** An operation that answers nothing gives the caller nothing. */
export const nothing = (result: unknown): void => assert.equal(result, undefined);

/** A deployment create body the published document and the sandbox accept, named `name`. */
export const deploymentBody = (name: string) =>
  ({
    name,
    cloudProvider: 'aws',
    creationMethod: 'cubecloud',
    creationStep: 'databases',
    isManaged: true,
    region: 'aws-us-east-1',
    targetPlatform: 'aws',
  }) as const;

/** An OAuth integration's published fields but the secret, as the client sends them to create or update. */
export const OAUTH_INTEGRATION = {
  name: 'Warehouse',
  type: 'snowflake',
  authUrl: 'https://idp.example/authorize',
  tokenUrl: 'https://idp.example/token',
  clientId: 'client',
  redirectUri: 'https://app.example/callback',
} as const;
