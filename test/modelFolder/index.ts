// The data model mounted as a workspace folder, run by the code-server harness in place of the
// integration suites (`node scripts/run-integration.mjs --model-folder`, a step of `npm test`): the
// window opens a .code-workspace file that holds a `dpmodel:` folder, since adding one to a
// single-folder window restarts the extension host.
import { runSuites as runIn, type SuiteResult } from '../integration/index';

export function runSuites(
  opts: { progress?: (line: string) => void; grep?: string } = {},
): Promise<SuiteResult> {
  return runIn({ ...opts, dir: __dirname });
}
