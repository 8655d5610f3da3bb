// The @vscode/test-electron route (`npm run test:electron`), for machines that can download a
// VS Code build: the same suites as the code-server route (out/test/integration/index.js), on a
// fresh copy of the same fixture workspace, with only this extension enabled.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-electron-'));
  fs.cpSync(path.join(root, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
  try {
    await runTests({
      version: process.env.DP_VSCODE_VERSION ?? '1.139.1',
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(root, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
      extensionTestsEnv: { DP_TEST_GREP: process.env.DP_TEST_GREP ?? '' },
    });
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
