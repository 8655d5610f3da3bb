// The sandbox's dashboard exports are real files a user can open: a PNG whose six bars follow the
// dashboard id (decoded here and measured pixel by pixel, every chunk's CRC checked with an
// independent bitwise CRC-32), and a one-page PDF whose cross-reference table points at each object.
import * as assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { renderPdf, renderPng } from '../../../src/sandbox/platform/exportFiles';

/** CRC-32 bit by bit (no table): a different computation from the encoder's. */
function crcBits(buf: Buffer): number {
  let c = ~0 >>> 0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunks(png: Buffer): { type: string; data: Buffer }[] {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    const typed = png.subarray(at + 4, at + 8 + len);
    assert.equal(
      png.readUInt32BE(at + 8 + len),
      crcBits(typed),
      `CRC of ${typed.subarray(0, 4).toString('ascii')}`,
    );
    out.push({ type: typed.subarray(0, 4).toString('ascii'), data: typed.subarray(4) });
    at += 12 + len;
  }
  return out;
}

describe('sandbox: export files', () => {
  it('a 320×200 RGB PNG with six bars whose heights follow the dashboard id', () => {
    for (const seed of [1, 1005, 2015]) {
      const parts = chunks(renderPng(seed));
      assert.deepEqual(
        parts.map((c) => c.type),
        ['IHDR', 'IDAT', 'IEND'],
      );
      const ihdr = parts[0]!.data;
      assert.deepEqual(
        [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[10], ihdr[11], ihdr[12]],
        [320, 200, 8, 2, 0, 0, 0],
      );
      assert.equal(parts[2]!.data.length, 0);
      const raw = inflateSync(parts[1]!.data);
      const stride = 320 * 3 + 1;
      assert.equal(raw.length, stride * 200);
      const px = (x: number, y: number) => [...raw.subarray(y * stride + 1 + x * 3, y * stride + 4 + x * 3)];
      const blue = [0x3b, 0x82, 0xf6];
      const light = [0xf8, 0xfa, 0xfc];
      for (let y = 0; y < 200; y++) assert.equal(raw[y * stride], 0, 'filter type 0 on every row');
      for (let i = 0; i < 6; i++) {
        const want = 40 + ((seed * (i + 3) * 37) % 120);
        for (const x of [20 + 48 * i, 20 + 48 * i + 35]) {
          let height = 0;
          for (let y = 0; y < 200; y++) if (JSON.stringify(px(x, y)) === JSON.stringify(blue)) height++;
          // Drawn from the row above the margin (y 189) up while 190 - y < the height.
          assert.equal(height, want - 1, `bar ${i} at x=${x} for ${seed}`);
          assert.deepEqual(px(x, 191 - want), blue, 'the top of the bar');
          assert.deepEqual(px(x, 189), blue, 'bars stand on the baseline');
          assert.deepEqual(px(x, 190), light, 'a margin under the bars');
          assert.deepEqual(px(x, 190 - want), light, 'nothing above the bar');
        }
        assert.deepEqual(px(20 + 48 * i + 36, 189), light, 'a gap between bars');
      }
      assert.deepEqual(px(19, 189), light, 'a margin before the first bar');
      assert.deepEqual(px(20 + 48 * 6, 189), light, 'no seventh bar');
    }
    assert.notDeepEqual(renderPng(1005), renderPng(1006), 'two dashboards differ');
  });

  it('a one-page PDF with the title (escaped, ASCII only) and a cross-reference table that points at each object', () => {
    const pdf = renderPdf('Sales (Q1) \\ Ünits').toString('latin1');
    assert.match(pdf, /^%PDF-1\.4\n1 0 obj\n<< \/Type \/Catalog \/Pages 2 0 R >>\nendobj\n/);
    const stream = 'BT /F1 24 Tf 72 720 Td (Sales \\(Q1\\) \\\\ ?nits) Tj ET';
    assert.ok(
      pdf.includes(`4 0 obj\n<< /Length ${stream.length} >>\nstream\n${stream}\nendstream\nendobj\n`),
      pdf,
    );
    const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)![1]);
    assert.equal(pdf.slice(xrefAt, xrefAt + 12), 'xref\n0 6\n000');
    const entries = pdf.slice(xrefAt).split('\n').slice(2, 8);
    assert.equal(entries[0], '0000000000 65535 f ');
    for (let n = 1; n <= 5; n++) {
      const off = Number(entries[n]!.slice(0, 10));
      assert.match(entries[n]!, /^\d{10} 00000 n $/);
      assert.equal(pdf.slice(off, off + `${n} 0 obj\n`.length), `${n} 0 obj\n`, `object ${n}`);
    }
    assert.match(pdf, /trailer\n<< \/Size 6 \/Root 1 0 R >>\nstartxref\n/);
  });
});
