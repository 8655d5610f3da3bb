// The README's screenshot walk, run by the code-server harness in place of the integration suites
// (`npm run screenshots`, i.e. scripts/run-integration.mjs --screenshots). Not part of `npm test`.
import { runSuites as runIn, type SuiteResult } from '../integration/index';

export function runSuites(
  opts: { progress?: (line: string) => void; grep?: string } = {},
): Promise<SuiteResult> {
  return runIn({ ...opts, dir: __dirname });
}
