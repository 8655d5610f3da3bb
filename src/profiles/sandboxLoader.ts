// Loads src/sandbox lazily (first use of the Sandbox profile), so activation does not pay for it.
import type { SandboxHandle } from '../sandbox';
import type { SandboxModule } from './sandboxProfile';

export type { SandboxHandle };

export async function loadSandbox(): Promise<SandboxModule<SandboxHandle>> {
  return import('../sandbox');
}
