// The test-quality check (scripts/test-quality.mjs): each rule fires on a test that cannot fail
// and stays quiet on the same test written so that it can.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';

interface Finding {
  file: string;
  line: number;
  rule: string;
  message: string;
}
interface TestQuality {
  checkSource(
    fileName: string,
    text: string,
    opts?: { checker?: ts.TypeChecker; sourceFile?: ts.SourceFile; envSet?: Set<string> },
  ): Finding[];
}

const root = path.resolve(__dirname, '..', '..', '..');
// Node 20.19+ loads an ES module through require (the check script is one).
const tq = createRequire(__filename)(path.join(root, 'scripts', 'test-quality.mjs')) as TestQuality;

/** Findings for `text`, type-checked (a temporary file compiled with the default library). */
function check(text: string, envSet = new Set<string>()): Finding[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-test-quality-'));
  try {
    const file = path.join(dir, 'sample.test.ts');
    fs.writeFileSync(
      file,
      `declare const assert: any; declare function it(t: string, f: Function): void;\n${text}`,
    );
    const program = ts.createProgram({
      rootNames: [file],
      options: { strict: true, noEmit: true, types: [] },
    });
    const sourceFile = program.getSourceFile(file)!;
    return tq.checkSource('sample.test.ts', sourceFile.text, {
      checker: program.getTypeChecker(),
      sourceFile,
      envSet,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const rules = (text: string, envSet?: Set<string>) => check(text, envSet).map((f) => f.rule);

describe('test-quality check', function () {
  this.timeout(60_000);

  describe('loop-assert', () => {
    it('fires when the only assertions run per item of a list never asserted non-empty', () => {
      assert.deepEqual(
        rules(`it('x', () => { const xs: number[] = load(); for (const x of xs) assert.ok(x > 0); });
               it('y', () => { load().forEach((x: number) => assert.ok(x > 0)); });
               declare function load(): number[];`),
        ['loop-assert', 'loop-assert'],
      );
    });
    it('fires on every() over a possibly empty list', () => {
      assert.deepEqual(
        rules(`it('x', () => { const xs: number[] = load(); assert.ok(xs.every((x) => x > 0)); });
               declare function load(): number[];`),
        ['loop-assert'],
      );
    });
    it('is quiet when the length is asserted, the list is a literal, or something else is asserted', () => {
      assert.deepEqual(
        rules(`declare function load(): number[];
               const CASES = [1, 2];
               it('a', () => { const xs = load(); assert.ok(xs.length > 0); for (const x of xs) assert.ok(x); });
               it('b', () => { for (const x of [1, 2]) assert.ok(x); for (const c of CASES) assert.ok(c); });
               it('c', () => { const xs = load(); assert.equal(xs.length, 2); assert.ok(xs.every((x) => x)); });
               it('d', () => { const r = load(); assert.equal(r[0], 1); for (const x of r.slice(1)) assert.ok(x); });
               it('e', () => { for (const x of Object.entries({ a: 1 })) assert.ok(x); });
               const helper = (...keys: string[]) => { for (const k of keys) assert.ok(k); };`),
        [],
      );
    });
  });

  describe('always-array', () => {
    it('fires on Array.isArray of a value typed as an array', () => {
      const found = check(
        `it('x', () => { const events: string[] = []; assert.ok(Array.isArray(events)); });`,
      );
      assert.deepEqual(
        found.map((f) => f.rule),
        ['always-array'],
      );
      assert.match(found[0]!.message, /events is always an array/);
    });
    it('is quiet on a value that may not be an array', () => {
      assert.deepEqual(
        rules(`it('x', () => { const v: unknown = JSON.parse('1'); assert.ok(Array.isArray(v));
               const w = JSON.parse('[]') as string[] | undefined; assert.ok(Array.isArray(w)); });`),
        [],
      );
    });
  });

  describe('self-compare', () => {
    it('fires on a value compared with itself', () => {
      assert.deepEqual(
        rules(`it('x', () => { const a = 1; assert.equal(a, a); assert.deepEqual(o.b, o . b); assert.ok(a === a); });
               declare const o: { b: number };`),
        ['self-compare', 'self-compare', 'self-compare'],
      );
    });
    it('is quiet on two different values (and on calls, which may differ)', () => {
      assert.deepEqual(
        rules(`it('x', () => { const a = 1, b = 2; assert.equal(a, b); assert.ok(f() === f()); });
               declare function f(): number;`),
        [],
      );
    });
  });

  describe('swallowed', () => {
    it('fires on an empty catch around an assertion, and on .catch(() => {}) after one', () => {
      assert.deepEqual(
        rules(`it('x', async () => { try { assert.equal(1, 2); } catch {} });
               it('y', async () => { await p.then(() => assert.ok(false)).catch(() => undefined); });
               declare const p: Promise<void>;`),
        ['swallowed', 'swallowed'],
      );
    });
    it('is quiet when the catch handles the error or the try asserts nothing', () => {
      assert.deepEqual(
        rules(`it('x', async () => { try { assert.equal(1, 2); } catch (e) { throw e; } });
               it('y', async () => { try { cleanup(); } catch {} assert.ok(true); });
               declare function cleanup(): void;`),
        [],
      );
    });
  });

  describe('always-skip', () => {
    it('fires on it.skip, xit, an unguarded this.skip() and a condition always true in CI', () => {
      assert.deepEqual(
        rules(`it.skip('a', () => {}); xit('b', () => {});
               it('c', function (this: any) { this.skip(); assert.ok(1); });
               it('d', function (this: any) { if (!process.env.DP_NEVER_SET) this.skip(); assert.ok(1); });
               it('e', function (this: any) { if (true) this.skip(); assert.ok(1); });
               declare const process: { env: Record<string, string | undefined> };`),
        ['always-skip', 'always-skip', 'always-skip', 'always-skip', 'always-skip'],
      );
    });
    it('is quiet on a skip whose condition CI can meet either way', () => {
      assert.deepEqual(
        rules(
          `it('a', function (this: any) { if (!exists()) this.skip(); assert.ok(1); });
           it('b', function (this: any) { if (!process.env.DP_SET) this.skip(); assert.ok(1); });
           declare function exists(): boolean;
           declare const process: { env: Record<string, string | undefined> };`,
          new Set(['DP_SET']),
        ),
        [],
      );
    });
  });

  it('can be waived on the line, with the rule named and a reason', () => {
    assert.deepEqual(
      rules(`it('x', () => { const a = 1;
               // test-quality-ok: self-compare the point is reflexivity
               assert.equal(a, a); });`),
      [],
    );
  });
});
