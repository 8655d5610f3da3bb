#!/usr/bin/env node
// `npm run test-quality`: finds tests that cannot fail, by reading their syntax trees (TypeScript
// compiler API) and, for one rule, their types. Exit code 1 when anything is found. Rules:
//   loop-assert     assertions only inside a loop or callback over a list (for…of, forEach, map,
//                   every, …) that the test never asserts to be non-empty: on an empty list they
//                   never run. Also `assert.ok(xs.every(…))`, true of an empty list.
//   always-array    `assert.ok(Array.isArray(x))` where x's type is already an array.
//   self-compare    a value compared with itself (assert.equal(a, a), a === a).
//   swallowed       an empty catch block whose try holds an assertion: its failure is swallowed.
//   always-skip     it.skip / describe.skip / xit, a this.skip() no condition guards, or one whose
//                   condition is always true in CI (a literal, or an environment variable that no
//                   script or workflow sets).
// A finding can be waived on its line or the line above with `// test-quality-ok: <rule> <why>`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ASSERT_ROOTS = new Set(['assert', 'expect']);
// Helpers that assert (checkList()(…), assertRedacted(…), expectError(…), verifyShape(…)).
const ASSERT_HELPER = /^(assert|expect|check|verify)[A-Z]/;
const LOOP_METHODS = new Set(['forEach', 'map', 'flatMap', 'every', 'filter', 'find', 'reduce']);
const TEST_CALLS = new Set(['it', 'test', 'describe', 'suite', 'before', 'beforeEach', 'after', 'afterEach']);

const norm = (node, sf) => node.getText(sf).replace(/\s+/g, '');

/** `assert(…)`, `assert.x(…)`, `expect(…)…`: the root identifier of the callee is assert/expect. */
function isAssertion(node) {
  if (!ts.isCallExpression(node)) return false;
  let e = node.expression;
  while (ts.isPropertyAccessExpression(e) || ts.isCallExpression(e))
    e = ts.isPropertyAccessExpression(e) ? e.expression : e.expression;
  return ts.isIdentifier(e) && (ASSERT_ROOTS.has(e.text) || ASSERT_HELPER.test(e.text));
}

function calleeName(call) {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

/** A call that defines tests or hooks (its callbacks are separate test bodies). */
function isTestDefinition(node) {
  if (!ts.isCallExpression(node)) return false;
  const e = node.expression;
  if (ts.isIdentifier(e)) return TEST_CALLS.has(e.text);
  return (
    ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && TEST_CALLS.has(e.expression.text)
  );
}

/** Assertions inside `node`, not counting those in nested test definitions. */
function assertionsIn(node) {
  const found = [];
  const visit = (n) => {
    if (isTestDefinition(n)) return;
    if (isAssertion(n)) found.push(n);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

const isFunction = (n) =>
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isFunctionDeclaration(n) ||
  ts.isMethodDeclaration(n);

function isParameter(id, from) {
  for (let p = from.parent; p; p = p.parent)
    if (isFunction(p) && p.parameters.some((q) => ts.isIdentifier(q.name) && q.name.text === id.text))
      return true;
  return false;
}

function enclosingFunction(node) {
  for (let p = node.parent; p; p = p.parent) if (isFunction(p)) return p;
  return node.getSourceFile();
}

/** True when `list` is known to be non-empty: a literal, a constant bound to one, a fixed tuple. */
function nonEmptyLiteral(list, checker, depth = 0) {
  let e = list;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression?.(e))
    e = e.expression;
  if (ts.isArrayLiteralExpression(e)) return e.elements.length > 0;
  if (ts.isObjectLiteralExpression(e)) return e.properties.length > 0;
  // Object.entries/keys/values of a non-empty object.
  if (
    ts.isCallExpression(e) &&
    /^Object\.(entries|keys|values)$/.test(e.expression.getText()) &&
    e.arguments.length === 1
  )
    return nonEmptyLiteral(e.arguments[0], checker, depth);
  // xs.map(…) of a non-empty xs.
  if (
    ts.isCallExpression(e) &&
    ts.isPropertyAccessExpression(e.expression) &&
    e.expression.name.text === 'map'
  )
    return nonEmptyLiteral(e.expression.expression, checker, depth + 1);
  if (!checker || depth > 3) return false;
  const type = checker.getTypeAtLocation(list);
  if (checker.isTupleType(type)) return (type.target?.minLength ?? 0) > 0;
  // A `const` (here or imported) whose initializer is a non-empty literal.
  if (ts.isIdentifier(e)) {
    let sym = checker.getSymbolAtLocation(e);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    const decl = sym?.valueDeclaration;
    if (
      decl &&
      ts.isVariableDeclaration(decl) &&
      decl.initializer &&
      ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const
    )
      return nonEmptyLiteral(decl.initializer, checker, depth + 1);
  }
  return false;
}

/**
 * True when some assertion in `scope` outside `loop` says something about `list` beyond its being an
 * array: its length, its size, its contents compared whole, an element.
 */
function lengthAsserted(scope, loop, list, sf) {
  const text = norm(list, sf);
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mention = new RegExp(`(^|[^\\w$.])${escaped}($|[^\\w$])`);
  for (const a of assertionsIn(scope)) {
    if (a.pos >= loop.pos && a.end <= loop.end) continue;
    for (const arg of a.arguments) {
      const t = norm(arg, sf);
      if (t === `Array.isArray(${text})` || t === `typeof${text}`) continue;
      if (mention.test(t)) return true;
    }
  }
  return false;
}

/** Each rule's findings for one source file. `checker` (optional) enables the type-based rule. */
export function checkSource(fileName, text, { checker, sourceFile, envSet = new Set() } = {}) {
  const sf =
    sourceFile ?? ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings = [];
  const lines = sf.text.split('\n');
  const waived = (node, rule) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    return [lines[line], lines[line - 1] ?? ''].some((l) => l.includes(`test-quality-ok: ${rule}`));
  };
  const report = (node, rule, message) => {
    if (waived(node, rule)) return;
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    findings.push({ file: fileName, line: line + 1, column: character + 1, rule, message });
  };

  /** Loops over possibly empty lists that hold assertions, by the function they are in. */
  const unsafe = new Map();
  const checkLoop = (loop, list, body) => {
    if (assertionsIn(body).length === 0) return;
    if (nonEmptyLiteral(list, checker)) return;
    const scope = enclosingFunction(loop);
    // A helper looping over its own (or its maker's) parameter: the caller chooses the list.
    if (ts.isIdentifier(list) && isParameter(list, loop)) return;
    if (lengthAsserted(scope, loop, list, sf)) return;
    unsafe.set(scope, [...(unsafe.get(scope) ?? []), { loop, list }]);
  };

  const visit = (node) => {
    // loop-assert: for…of and array methods whose callback asserts.
    if (ts.isForOfStatement(node) || ts.isForInStatement(node))
      checkLoop(node, node.expression, node.statement);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      LOOP_METHODS.has(node.expression.name.text) &&
      node.arguments.length > 0 &&
      isFunction(node.arguments[0]) &&
      !isTestDefinition(node)
    )
      checkLoop(node, node.expression.expression, node.arguments[0].body);

    if (isAssertion(node)) {
      const name = calleeName(node);
      // loop-assert: `every` over a list is vacuously true when it is empty.
      for (const arg of node.arguments) {
        const vacuous = (e) =>
          ts.isCallExpression(e) &&
          ts.isPropertyAccessExpression(e.expression) &&
          e.expression.name.text === 'every'
            ? e
            : undefined;
        const call = vacuous(arg);
        if (call) {
          const list = call.expression.expression;
          if (!nonEmptyLiteral(list, checker) && !lengthAsserted(enclosingFunction(node), node, list, sf))
            report(node, 'loop-assert', `${norm(arg, sf)} also holds when ${norm(list, sf)} is empty`);
        }
      }
      // always-array
      if ((name === 'ok' || name === 'assert') && node.arguments.length > 0 && checker) {
        const arg = node.arguments[0];
        if (
          ts.isCallExpression(arg) &&
          norm(arg.expression, sf) === 'Array.isArray' &&
          arg.arguments.length === 1
        ) {
          const type = checker.getTypeAtLocation(arg.arguments[0]);
          const flags = type.flags;
          const loose = flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown);
          if (!loose && (checker.isArrayType(type) || checker.isTupleType(type)))
            report(
              node,
              'always-array',
              `${norm(arg.arguments[0], sf)} is always an array (${checker.typeToString(type)}): assert what it holds`,
            );
        }
      }
      // self-compare: the same expression on both sides.
      if (
        node.arguments.length >= 2 &&
        /^(equal|strictEqual|deepEqual|deepStrictEqual|notEqual|notStrictEqual|notDeepEqual|notDeepStrictEqual)$/.test(
          name ?? '',
        ) &&
        norm(node.arguments[0], sf) === norm(node.arguments[1], sf)
      )
        report(node, 'self-compare', `${norm(node.arguments[0], sf)} is compared with itself`);
    }
    if (
      ts.isBinaryExpression(node) &&
      [
        ts.SyntaxKind.EqualsEqualsEqualsToken,
        ts.SyntaxKind.EqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsToken,
      ].includes(node.operatorToken.kind) &&
      norm(node.left, sf) === norm(node.right, sf) &&
      !/\(/.test(norm(node.left, sf)) // f() === f() may differ between calls
    )
      report(node, 'self-compare', `${norm(node.left, sf)} is compared with itself`);

    // swallowed: try { …assert… } catch {} — the assertion's failure disappears.
    if (ts.isTryStatement(node) && node.catchClause && node.catchClause.block.statements.length === 0) {
      if (assertionsIn(node.tryBlock).length > 0)
        report(
          node.catchClause,
          'swallowed',
          'an empty catch swallows the failures of the assertions in its try',
        );
    }
    // .catch(() => {}) / .catch(() => undefined) on a chain that asserts.
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'catch' &&
      node.arguments.length === 1 &&
      isFunction(node.arguments[0]) &&
      ((ts.isBlock(node.arguments[0].body) && node.arguments[0].body.statements.length === 0) ||
        (!ts.isBlock(node.arguments[0].body) &&
          /^(undefined|null|void0)$/.test(norm(node.arguments[0].body, sf)))) &&
      assertionsIn(node.expression.expression).length > 0
    )
      report(
        node,
        'swallowed',
        'a .catch that returns nothing swallows the failures of the assertions before it',
      );

    // always-skip
    if (
      ts.isCallExpression(node) &&
      ((ts.isPropertyAccessExpression(node.expression) &&
        ts.isIdentifier(node.expression.expression) &&
        TEST_CALLS.has(node.expression.expression.text) &&
        node.expression.name.text === 'skip') ||
        (ts.isIdentifier(node.expression) && /^x(it|describe|test)$/.test(node.expression.text)))
    )
      report(node, 'always-skip', `${norm(node.expression, sf)} never runs`);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'skip' &&
      node.arguments.length === 0 &&
      !(ts.isIdentifier(node.expression.expression) && TEST_CALLS.has(node.expression.expression.text))
    ) {
      const guard = guardOf(node);
      if (!guard) report(node, 'always-skip', 'this skip runs on every path: the test can never fail');
      else if (ts.isIfStatement(guard) || ts.isConditionalExpression(guard)) {
        const why = alwaysTrueInCI(guard.expression ?? guard.condition, envSet, sf);
        if (why) report(node, 'always-skip', `the skip's condition is always true in CI: ${why}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // A loop's assertions matter only when the function asserts nothing that always runs.
  for (const [scope, loops] of unsafe) {
    const inLoop = (a) => loops.some(({ loop }) => a.pos >= loop.pos && a.end <= loop.end);
    if (assertionsIn(scope).some((a) => !inLoop(a))) continue;
    for (const { loop, list } of loops)
      report(
        loop,
        'loop-assert',
        `the only assertions run for each item of ${norm(list, sf)}, which the test never asserts is non-empty`,
      );
  }
  return findings.sort((a, b) => a.line - b.line);
}

/** The nearest if, ?:, &&/||, catch or loop that decides whether `node` runs (any ancestor). */
function guardOf(node) {
  for (let p = node.parent, child = node; p; child = p, p = p.parent) {
    if (ts.isIfStatement(p) && child !== p.expression) return p;
    if (ts.isConditionalExpression(p) && child !== p.condition) return p;
    if (
      ts.isBinaryExpression(p) &&
      child === p.right &&
      [
        ts.SyntaxKind.AmpersandAmpersandToken,
        ts.SyntaxKind.BarBarToken,
        ts.SyntaxKind.QuestionQuestionToken,
      ].includes(p.operatorToken.kind)
    )
      return p;
    if (ts.isCatchClause(p) || ts.isSwitchStatement(p) || ts.isIterationStatement(p, false)) return p;
    // A callback run later (then/catch handlers, event listeners) is conditional by nature.
    if (isFunction(p) && p.parent && ts.isCallExpression(p.parent) && !isTestDefinition(p.parent)) return p;
  }
  return undefined;
}

/** Why `cond` is always true in CI, or undefined. */
function alwaysTrueInCI(cond, envSet, sf) {
  let e = cond;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (e.kind === ts.SyntaxKind.TrueKeyword) return 'true';
  if (ts.isNumericLiteral(e) && Number(e.text) !== 0) return e.text;
  if (ts.isStringLiteral(e) && e.text !== '') return 'a non-empty string';
  // `!process.env.X` (or `process.env.X === undefined`) where nothing sets X.
  const envName = (x) =>
    ts.isPropertyAccessExpression(x) && norm(x.expression, sf) === 'process.env' ? x.name.text : undefined;
  let name;
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken)
    name = envName(e.operand);
  if (
    ts.isBinaryExpression(e) &&
    [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken].includes(e.operatorToken.kind) &&
    /^(undefined|null)$/.test(norm(e.right, sf))
  )
    name = envName(e.left);
  if (name && !envSet.has(name)) return `no script or CI workflow sets ${name}`;
  return undefined;
}

/** Environment variable names the project's scripts, package.json and CI workflows set or pass. */
export function envNamesSet(root) {
  const names = new Set(['CI']);
  const files = [path.join(root, 'package.json')];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (/\.(m?js|cjs|sh|ya?ml|json)$/.test(d.name)) files.push(p);
    }
  };
  walk(path.join(root, 'scripts'));
  walk(path.join(root, '.github'));
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    for (const m of text.matchAll(/\b([A-Z][A-Z0-9_]{2,})\s*[=:]/g)) names.add(m[1]);
    for (const m of text.matchAll(/env\.([A-Z][A-Z0-9_]+)\s*=/g)) names.add(m[1]);
  }
  return names;
}

/** Every test source file (test/**\/*.ts). */
function testFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name.endsWith('.ts') && !d.name.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(path.join(root, 'test'));
  return out.sort();
}

/** Checks every test file with a type checker over the project's tsconfig. */
export function checkProject(root) {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const files = testFiles(root);
  const program = ts.createProgram({ rootNames: files, options: { ...config.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const envSet = envNamesSet(root);
  const findings = [];
  for (const file of files) {
    const sourceFile = program.getSourceFile(file);
    if (!sourceFile) continue;
    findings.push(
      ...checkSource(path.relative(root, file), sourceFile.text, { checker, sourceFile, envSet }),
    );
  }
  return { files: files.length, findings };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { files, findings } = checkProject(root);
  for (const f of findings) console.log(`${f.file}:${f.line}:${f.column}  ${f.rule}  ${f.message}`);
  console.log(
    findings.length
      ? `test-quality: ${findings.length} test${findings.length === 1 ? '' : 's'} that cannot fail in ${files} files`
      : `test-quality: ${files} test files, no test that cannot fail`,
  );
  process.exitCode = findings.length ? 1 : 0;
}
