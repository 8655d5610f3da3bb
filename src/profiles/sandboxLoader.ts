// Loads src/sandbox lazily (first use of the Sandbox profile), so activation does not pay for it.
import type { SandboxModule } from './sandboxProfile';

export async function loadSandbox(): Promise<SandboxModule> {
  return import('../sandbox');
}
