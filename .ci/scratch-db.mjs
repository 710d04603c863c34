// Creates or drops a scratch database on the CI machine's PostgreSQL server, with the project's own
// `pg` client (a bare machine may lack psql). Usage: node .ci/scratch-db.mjs create|drop NAME
import pg from 'pg';

const [action, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action) || !/^[a-z_][a-z0-9_]*$/.test(name ?? '')) {
  console.error('usage: node .ci/scratch-db.mjs create|drop NAME');
  process.exit(2);
}
const client = new pg.Client({
  connectionString: process.env.PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/test',
});
await client.connect();
await client.query(action === 'create' ? `create database ${name}` : `drop database if exists ${name} with (force)`);
await client.end();
