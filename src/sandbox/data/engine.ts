// A real SQL engine for the sandbox's Data API: SQLite (sql.js, WebAssembly) over deterministic
// sample tables (orders, customers, products) that end the day before the clock's day. Row counts scale to millions for benchmarks; rows are
// inserted through one prepared statement in one transaction.
import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs, { type Database, type SqlValue, type Statement } from 'sql.js';
import { rng } from '../../shared/random';

export interface DataEngine {
  readonly db: Database;
  readonly rows: number;
  /** The day the sample data ends before (midnight UTC of the clock's day when it was made). */
  readonly today: Date;
  prepare(sql: string, params?: SqlValue[]): Statement;
  /** All rows of a query (for small results: meta lookups, load queries with a limit, tests). */
  all(sql: string, params?: SqlValue[]): { columns: string[]; rows: SqlValue[][] };
}

const DAYS = 3 * 365;

function wasmPath(): string {
  const beside = path.join(__dirname, 'sql-wasm.wasm');
  if (fs.existsSync(beside)) return beside;
  const fromPackage = 'sql.js/dist/sql-wasm.wasm'; // a variable: the bundles use the copy beside them
  return require.resolve(fromPackage);
}

const CITIES: [string, string][] = [
  ['Berlin', 'Germany'],
  ['Munich', 'Germany'],
  ['Paris', 'France'],
  ['Lyon', 'France'],
  ['London', 'United Kingdom'],
  ['Manchester', 'United Kingdom'],
  ['New York', 'United States'],
  ['San Francisco', 'United States'],
  ['Austin', 'United States'],
  ['Toronto', 'Canada'],
  ['Tokyo', 'Japan'],
  ['Sydney', 'Australia'],
];
const SEGMENTS = ['Consumer', 'Consumer', 'Small Business', 'Enterprise'];
const CATEGORIES = ['Electronics', 'Books', 'Home', 'Garden', 'Toys', 'Sports', 'Beauty', 'Grocery'];
const STATUSES = [
  'completed',
  'completed',
  'completed',
  'shipped',
  'shipped',
  'processing',
  'new',
  'canceled',
];
const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Margaret',
  'Ken',
  'Radia',
  'Linus',
  'Frances',
  'John',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Hamilton',
  'Thompson',
  'Perlman',
  'Torvalds',
  'Allen',
  'Backus',
];

/**
 * @param opts.now The clock's time when the data is made (the real clock by default): orders span
 *   the three years before that day, so relative date ranges ("last 30 days") find data.
 */
export async function createDataEngine(opts: {
  rows: number;
  seed?: number;
  now?: Date;
}): Promise<DataEngine> {
  const clock = opts.now ?? new Date();
  const today = new Date(Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth(), clock.getUTCDate()));
  const SQL = await initSqlJs({ locateFile: () => wasmPath() });
  const db = new SQL.Database();
  const r = rng(opts.seed ?? 7);
  const customers = Math.max(50, Math.min(5000, Math.round(opts.rows / 20)));
  const products = 120;
  db.run(`
    CREATE TABLE t_customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT, country TEXT, segment TEXT);
    CREATE TABLE t_products (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL);
    CREATE TABLE t_orders (id INTEGER PRIMARY KEY, status TEXT, created_at TEXT, amount REAL, customer_id INTEGER, product_id INTEGER);
  `);
  db.run('BEGIN');
  let stmt = db.prepare('INSERT INTO t_customers VALUES (?, ?, ?, ?, ?)');
  for (let i = 1; i <= customers; i++) {
    const [city, country] = CITIES[Math.floor(r() * CITIES.length)]!;
    stmt.run([
      i,
      `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`,
      city,
      country,
      SEGMENTS[Math.floor(r() * SEGMENTS.length)]!,
    ]);
  }
  stmt.free();
  stmt = db.prepare('INSERT INTO t_products VALUES (?, ?, ?, ?)');
  for (let i = 1; i <= products; i++) {
    const category = CATEGORIES[i % CATEGORIES.length]!;
    stmt.run([i, `${category} item ${i}`, category, Math.round((5 + r() * 495) * 100) / 100]);
  }
  stmt.free();
  const start = today.getTime() - DAYS * 86_400_000;
  stmt = db.prepare('INSERT INTO t_orders VALUES (?, ?, ?, ?, ?, ?)');
  for (let i = 1; i <= opts.rows; i++) {
    // Later days get more orders: a growing shop.
    const t = start + Math.floor(Math.sqrt(r()) * DAYS * 86_400_000);
    stmt.run([
      i,
      STATUSES[Math.floor(r() * STATUSES.length)]!,
      new Date(t).toISOString().replace('Z', ''),
      Math.round((10 + r() * 490) * 100) / 100,
      1 + Math.floor(r() * customers),
      1 + Math.floor(r() * products),
    ]);
  }
  stmt.free();
  db.run('COMMIT');
  db.run(`
    CREATE INDEX i_orders_created ON t_orders (created_at, amount);
    -- Covering indexes for the usual aggregates (by status, customer, product): grouping and joins
    -- read the index in order instead of sorting every row in a temporary b-tree.
    CREATE INDEX i_orders_status ON t_orders (status, amount);
    CREATE INDEX i_orders_customer ON t_orders (customer_id, amount);
    CREATE INDEX i_orders_product ON t_orders (product_id, amount);
    -- Statistics, so that the planner picks the narrower index (a date range over a status).
    ANALYZE;
    CREATE VIEW orders AS SELECT id, status, created_at, amount, customer_id, product_id FROM t_orders;
    CREATE VIEW customers AS SELECT id, name, city, country, segment FROM t_customers;
    CREATE VIEW products AS SELECT id, name, category, price FROM t_products;
  `);
  return {
    db,
    rows: opts.rows,
    today,
    prepare: (sql, params) => {
      const s = db.prepare(sql);
      if (params?.length) s.bind(params);
      return s;
    },
    all: (sql, params) => {
      const s = db.prepare(sql);
      try {
        if (params?.length) s.bind(params);
        const rows: SqlValue[][] = [];
        while (s.step()) rows.push(s.get());
        return { columns: s.getColumnNames(), rows };
      } finally {
        s.free();
      }
    },
  };
}
