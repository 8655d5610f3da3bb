// The planner's English: the words a question is read in (stop words, business synonyms, money
// and number words) and how a text becomes them (lower case, singular, synonyms mapped).

export const STOP = new Set(
  `a an the of by per for in on at to from with and or is are was were be been being has have had do
  does did what which who whom how many much me show give list tell please our my we i us there their
  each every all over during across between than that this these those it its can could would should
  you your about vs versus as up down so get see want like most least top highest lowest best worst
  biggest largest smallest fewest greatest more less make made bring brings brought generate generates
  generated come comes came per number count total overall sum amount value`.split(/\s+/),
);
// "count", "total", "amount", "sum" and "number" are member words too: they are kept for phrase
// matching and only ignored as leftovers.
export const MEMBER_WORDS = new Set(['count', 'total', 'amount', 'sum', 'number', 'value']);

/** Words that mean the same thing to a business user, mapped onto the model's usual words. */
export const SYNONYMS: Record<string, string> = {
  client: 'customer',
  buyer: 'customer',
  shopper: 'customer',
  account: 'customer',
  purchase: 'order',
  transaction: 'order',
  sale: 'order',
  item: 'product',
  sku: 'product',
  article: 'product',
  type: 'category',
  kind: 'category',
  nation: 'country',
  town: 'city',
  state: 'status',
  stage: 'status',
  tier: 'segment',
  mean: 'average',
  avg: 'average',
  typical: 'average',
  cost: 'price',
  date: 'created',
};

/** Money words: the model's currency measures (a sum, or an average when asked). */
export const MONEY = new Set([
  'revenue',
  'sale',
  'sales',
  'sell',
  'sold',
  'selling',
  'sells',
  'income',
  'turnover',
  'gmv',
  'earning',
  'earnings',
  'earn',
  'money',
  'spend',
  'spent',
  'spending',
  'value',
]);

const NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};
export const NUM = `(\\d+|${Object.keys(NUMBERS).join('|')})`;
export const num = (s: string) => NUMBERS[s] ?? Number(s);

export function singular(w: string): string {
  if (w.length <= 3) return w;
  if (/ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(w)) return w;
  if (/(sses|uses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (/s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** A text's words, lower case and singular, with synonyms mapped. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => {
      const s = singular(w);
      return SYNONYMS[s] ?? s;
    });
}

export const content = (ws: string[]) => ws.filter((w) => !STOP.has(w) || MEMBER_WORDS.has(w));
