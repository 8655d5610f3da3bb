// Network settings for the API clients, from VS Code's own proxy settings plus
// `dashboardPlatform.extraCaCertificates` (PEM files read into text here, so src/api gets PEM strings).
// All from the user's settings only: a workspace cannot add a CA, a proxy or turn off TLS checks.
import { readFile } from 'node:fs/promises';
import type * as vscode from 'vscode';
import type { NetworkSettings } from '../api/http';
import { parseNoProxy } from '../api/net/network';
import { userSetting } from './safetySettings';

export const NETWORK_SETTING_KEYS = [
  'http.proxy',
  'http.proxyStrictSSL',
  'http.noProxy',
  'dashboardPlatform.extraCaCertificates',
];

export function affectsNetwork(e: vscode.ConfigurationChangeEvent): boolean {
  return NETWORK_SETTING_KEYS.some((k) => e.affectsConfiguration(k));
}

/** Reads the settings; CA files that cannot be read are reported through `warn` and skipped. */
export async function readNetworkSettings(warn: (m: string) => void): Promise<NetworkSettings> {
  const proxy = userSetting<string | undefined>('http', 'proxy', undefined)?.trim() || undefined;
  const proxyStrictSSL = userSetting<boolean>('http', 'proxyStrictSSL', true) !== false;
  const rawNoProxy = userSetting<unknown>('http', 'noProxy', undefined);
  const noProxy = Array.isArray(rawNoProxy)
    ? rawNoProxy.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim())
    : typeof rawNoProxy === 'string'
      ? parseNoProxy(rawNoProxy)
      : [];
  const files = userSetting<unknown>('dashboardPlatform', 'extraCaCertificates', undefined);
  const paths = (Array.isArray(files) ? files : typeof files === 'string' ? [files] : []).filter(
    (p): p is string => typeof p === 'string' && p.trim() !== '',
  );
  const extraCaCerts: string[] = [];
  for (const p of paths) {
    try {
      const pem = await readFile(p.trim(), 'utf8');
      if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
        warn(`dashboardPlatform.extraCaCertificates: ${p} holds no PEM certificate; ignored.`);
        continue;
      }
      extraCaCerts.push(pem);
    } catch (e) {
      warn(`dashboardPlatform.extraCaCertificates: cannot read ${p}: ${(e as Error).message}`);
    }
  }
  return {
    proxy,
    proxyStrictSSL,
    noProxy: noProxy.length ? noProxy : undefined,
    extraCaCerts: extraCaCerts.length ? extraCaCerts : undefined,
  };
}
