// The sandbox's sample data model as cube files (YAML), the way a deployment's repository holds it.
// Every deployment starts from these; the build compiles them into what /v1/meta, /v1/load and
// /v1/cubesql serve. Member titles default to "<Cube title> <Titleized name>" as in the engine; a
// member without a description has none (the engine invents none). Primary keys are hidden.

/**
 * A dimension whose `sql` is the column of its name (every seeded one is), with its further
 * keys (`primary_key: true`, a description), as a cube file's YAML writes it.
 */
const column = (name: string, type: string, ...more: string[]) =>
  [`- name: ${name}`, `  sql: ${name}`, `  type: ${type}`, ...more.map((m) => `  ${m}`)]
    .map((l) => `      ${l}`)
    .join('\n');

/** A cube file of one cube over `table`: its name and description, then `body` (joins, members). */
const cube = (name: string, table: string, description: string, body: string) =>
  `cubes:\n  - name: ${name}\n    sql_table: ${table}\n    description: ${description}\n\n${body}`;

const ORDERS = cube(
  'orders',
  'orders',
  'One row per order placed in the shop.',
  `    joins:
      - name: customers
        sql: "{CUBE}.customer_id = {customers}.id"
        relationship: many_to_one
      - name: products
        sql: "{CUBE}.product_id = {products}.id"
        relationship: many_to_one

    measures:
      - name: count
        type: count
        description: Number of orders.
      - name: total_amount
        sql: amount
        type: sum
        format: currency
        description: Sum of order amounts (USD).
      - name: avg_amount
        title: Average Amount
        sql: amount
        type: avg
        format: currency
        description: Average order amount (USD).
      - name: customer_count
        sql: customer_id
        type: count_distinct
        description: Distinct customers who ordered.
      - name: slow_count
        type: count
        description: 'Like count, but computed slowly: demonstrates long polling ("Continue wait").'
        meta:
          sandbox_slow: true

    dimensions:
${column('id', 'number', 'primary_key: true', 'description: Order id.')}
${column('status', 'string', 'description: new, processing, shipped, completed or canceled.')}
${column('created_at', 'time', 'description: When the order was placed.')}
${column('amount', 'number', 'description: Order amount (USD).')}

    segments:
      - name: completed
        title: Completed orders
        sql: "{CUBE}.status = 'completed'"

    pre_aggregations:
      - name: orders_by_status
        measures:
          - CUBE.count
          - CUBE.total_amount
        dimensions:
          - CUBE.status
        time_dimension: CUBE.created_at
        granularity: day
`,
);

const CUSTOMERS = cube(
  'customers',
  'customers',
  'People and companies who buy from the shop.',
  `    measures:
      - name: count
        sql: id
        type: count_distinct
        description: Number of customers.

    dimensions:
${column('id', 'number', 'primary_key: true')}
${column('name', 'string')}
${column('city', 'string')}
${column('country', 'string')}
${column('segment', 'string', 'description: Consumer, Small Business or Enterprise.')}

    segments:
      - name: enterprise
        title: Enterprise customers
        sql: "{CUBE}.segment = 'Enterprise'"
`,
);

const PRODUCTS = cube(
  'products',
  'products',
  'The catalogue.',
  `    measures:
      - name: count
        sql: id
        type: count_distinct
        description: Number of products.
      - name: avg_price
        title: Average Price
        sql: price
        type: avg
        format: currency

    dimensions:
${column('id', 'number', 'primary_key: true')}
${column('name', 'string')}
${column('category', 'string')}
${column('price', 'number')}
`,
);

/** Project-relative path → content; cubes compile (and /v1/meta lists them) in this order. */
export const SEED_FILES: ReadonlyArray<readonly [string, string]> = [
  ['model/cubes/orders.yml', ORDERS],
  ['model/cubes/customers.yml', CUSTOMERS],
  ['model/cubes/products.yml', PRODUCTS],
  ['cube.py', "from cube import config\n\n# The sandbox's deployment configuration (not compiled).\n"],
];

// "Marketing Sandbox" (deployment 3) is mid-change: a campaigns cube whose spend column does not
// exist, so its deploy branch fails to compile (the build status, its pods and logs say so) until
// the file is fixed on a branch and merged, or on the unlocked deploy branch.
const CAMPAIGNS = cube(
  'campaigns',
  'orders',
  'Marketing spend per order (being added).',
  `    measures:
      - name: count
        type: count
        description: Orders attributed to a campaign.
      - name: spend
        title: Spend
        type: sum
        format: currency
        sql: spend_usd
`,
);

/** The deployment whose seeded model does not compile. */
export const FAILED_BUILD_DEPLOYMENT = 3;

/** The files a deployment's repository starts with. */
export function seedFilesFor(deploymentId: number): ReadonlyArray<readonly [string, string]> {
  return deploymentId === FAILED_BUILD_DEPLOYMENT
    ? [...SEED_FILES, ['model/cubes/campaigns.yml', CAMPAIGNS]]
    : SEED_FILES;
}
