// Constructs PlatformClient. Kept apart so the composition root stays free of API details.
import { PlatformClient } from '../api/platformClient';
import type { PlatformClientOptions } from './clientProvider';

export function createPlatformClient(opts: PlatformClientOptions): PlatformClient {
  return new PlatformClient(opts);
}
