// Keyboard focus must show on every control of both webview pages. A ring drawn inside a button
// whose background is the focus colour (chat's Send, in both themes) did not show: a trial found
// it after the pages began sharing media/webview.css. These read the sheets' focus rules.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const media = path.resolve(__dirname, '..', '..', '..', 'media');

/** The rules of a sheet as selector -> declarations (comments dropped; no nesting in these sheets). */
function rules(file: string): { selector: string; body: string }[] {
  const text = fs.readFileSync(path.join(media, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  return [...text.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({ selector: m[1]!.trim(), body: m[2]! }));
}

const offset = (body: string): number | undefined => {
  const m = /outline-offset:\s*(-?\d+)px/.exec(body);
  return m ? Number(m[1]) : undefined;
};

describe('webviews: keyboard focus is visible', () => {
  it('the shared sheet draws focus outside the element, for every page', () => {
    const focus = rules('webview.css').find((r) => r.selector === ':focus-visible');
    assert.ok(focus, 'media/webview.css has a :focus-visible rule');
    assert.match(focus.body, /outline:\s*1px solid var\(--vscode-focusBorder\)/);
    assert.ok((offset(focus.body) ?? 0) > 0, 'the ring sits outside the element');
  });

  it("no page draws a button's focus ring inside it", () => {
    for (const file of ['chat.css', 'dashboard.css', 'webview.css']) {
      const inside = rules(file).filter(
        (r) => /button[^,]*:focus/.test(r.selector) && (offset(r.body) ?? 0) < 0,
      );
      assert.deepEqual(
        inside.map((r) => r.selector),
        [],
        `${file}: a button's focus ring inside the button`,
      );
    }
  });
});
