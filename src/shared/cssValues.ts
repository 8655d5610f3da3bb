// What a dashboard theme value may be: the platform puts theme strings straight into CSS, so a
// value the browser would drop ("banana" as a colour, "12" as a padding) is caught before it is
// published. The same patterns go into the JSON Schema of `*.dashboard.json` (the text editor
// flags them too) and into the file parser's problems. No DOM, no vscode.

/** The named colours of CSS Color 4, plus the keywords every colour property accepts. */
const NAMED_COLOURS =
  'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent currentcolor currentColor inherit initial unset';

const LENGTH_UNITS = 'px|em|rem|%|vh|vw|vmin|vmax|pt|pc|cm|mm|in|ch|ex|fr|dvh|dvw|svh|svw|lvh|lvw|cqw|cqh';
const NUMBER = '[+-]?(?:\\d+\\.?\\d*|\\.\\d+)';
/** var(--x) or var(--x, fallback): a custom property the page defines. */
const VAR = 'var\\(\\s*--[A-Za-z0-9_-]+\\s*(?:,[^()]*)?\\)';
/** calc()/min()/max()/clamp() with one level of nested parentheses. */
const MATH = '(?:calc|min|max|clamp)\\((?:[^()]|\\([^()]*\\))*\\)';

const COLOUR_SOURCE = [
  '#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})',
  '(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix)\\([^()]*(?:\\([^()]*\\)[^()]*)*\\)',
  VAR,
  `(?:${NAMED_COLOURS.split(' ').join('|')})`,
].join('|');

const LENGTH_ONE = `(?:0|${NUMBER}(?:${LENGTH_UNITS})|${MATH}|${VAR}|auto)`;

/** Anchored patterns (JSON Schema `pattern` is unanchored, so these carry ^ and $). */
export const CSS_PATTERNS = {
  colour: `^\\s*(?:${COLOUR_SOURCE})\\s*$`,
  /** One to four lengths (padding and margin take up to four; a width or radius usually one). */
  size: `^\\s*${LENGTH_ONE}(?:\\s+${LENGTH_ONE}){0,3}\\s*$`,
  fontSize: `^\\s*(?:${LENGTH_ONE}|xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large|smaller|larger)\\s*$`,
  fontWeight: '^\\s*(?:normal|bold|bolder|lighter|[1-9]\\d{0,2}|1000|var\\(\\s*--[A-Za-z0-9_-]+\\s*\\))\\s*$',
  borderStyle:
    '^\\s*(?:none|hidden|dotted|dashed|solid|double|groove|ridge|inset|outset|var\\(\\s*--[A-Za-z0-9_-]+\\s*\\))\\s*$',
} as const;
export type CssValueKind = keyof typeof CSS_PATTERNS;

const compiled = Object.fromEntries(
  Object.entries(CSS_PATTERNS).map(([k, v]) => [k, new RegExp(v, 'i')]),
) as Record<CssValueKind, RegExp>;

const EXPECTED: Record<CssValueKind, string> = {
  colour: 'a CSS colour such as #5b5fc7, rgb(91 95 199), hsl(…) or a colour name',
  size: 'a CSS length such as 12px, 0.5rem or 0 (up to four for padding and margin)',
  fontSize: 'a CSS font size such as 14px, 1rem or small',
  fontWeight: 'a font weight: normal, bold, bolder, lighter or 100 to 900',
  borderStyle: 'a CSS border style: none, solid, dashed, dotted, double, …',
};

export function isCssValue(kind: CssValueKind, value: string): boolean {
  return compiled[kind].test(value);
}

/** The kind of CSS value a theme field takes, by its path under `config.theme` (e.g. widgets.border.color). */
export function themeValueKind(path: readonly string[]): CssValueKind | undefined {
  const last = path[path.length - 1] ?? '';
  if (/color$/i.test(last)) return 'colour';
  if (last === 'fontSize') return 'fontSize';
  if (last === 'fontWeight') return 'fontWeight';
  if (last === 'style' && path[path.length - 2] === 'border') return 'borderStyle';
  if (['padding', 'margin', 'width', 'radius'].includes(last)) return 'size';
  return undefined;
}

/** Why a theme value is not accepted, or undefined when it is (an empty string counts as unset). */
export function themeValueProblem(path: readonly string[], value: unknown): string | undefined {
  const kind = themeValueKind(path);
  if (!kind || typeof value !== 'string' || value.trim() === '') return undefined;
  return isCssValue(kind, value) ? undefined : `"${value}" is not ${EXPECTED[kind]}.`;
}

/** Every theme value that is not valid CSS for its field: [path under the theme, message]. */
export function themeProblems(theme: unknown): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  const walk = (v: unknown, path: string[]) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) walk(child, [...path, k]);
      return;
    }
    const message = themeValueProblem(path, v);
    if (message) out.push({ path, message });
  };
  walk(theme, []);
  return out;
}
