// Constructs PlatformClient. Kept apart so the composition root stays free of API details.
// Until src/api/platformClient.ts lands this reports that plainly instead of failing the bundle.
import type { PlatformClient } from '../api/platformClient';
import type { PlatformClientOptions } from './clientProvider';

export function createPlatformClient(_opts: PlatformClientOptions): PlatformClient {
  throw new Error('The platform API client is not part of this build yet.');
}
