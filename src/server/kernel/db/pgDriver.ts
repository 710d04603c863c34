import type pg from 'pg';

/**
 * node-postgres, loaded with the first PostgreSQL connection: the server is one bundle, and a static
 * import would load it at every start, on the embedded database too, which never needs it.
 */
let loading: Promise<typeof pg> | undefined;

export function pgDriver(): Promise<typeof pg> {
  loading ??= import('pg').then(({ default: driver }) => {
    // bigint (int8) and numeric stay text, as on PGlite.
    driver.types.setTypeParser(driver.types.builtins.INT8, (v) => v);
    driver.types.setTypeParser(driver.types.builtins.NUMERIC, (v) => v);
    return driver;
  });
  return loading;
}
