// Network settings for the API clients, from VS Code's own proxy settings plus
// `dashboardPlatform.extraCaCertificates` (PEM files read into text here, so src/api gets PEM strings).
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { NetworkSettings } from '../api/http';
import { parseNoProxy } from '../api/net/network';

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
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<string>('proxy')?.trim() || undefined;
  const proxyStrictSSL = http.get<boolean>('proxyStrictSSL', true);
  const rawNoProxy = http.get<unknown>('noProxy');
  const noProxy = Array.isArray(rawNoProxy)
    ? rawNoProxy.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim())
    : typeof rawNoProxy === 'string'
      ? parseNoProxy(rawNoProxy)
      : [];
  const files = vscode.workspace.getConfiguration('dashboardPlatform').get<unknown>('extraCaCertificates');
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
