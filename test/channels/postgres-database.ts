import { randomBytes } from 'node:crypto';
import pg from 'pg';

import { POSTGRES_URL } from '../support/postgres-plan.js';

/** The test server (POSTGRES_URL: 127.0.0.1:5432 as the OS user, trust auth), its `postgres` database; or CANDOR_TEST_PG_ADMIN_URL. */
export const ADMIN_URL = process.env.CANDOR_TEST_PG_ADMIN_URL ?? Object.assign(new URL(POSTGRES_URL), { pathname: '/postgres' }).toString();

/** Creates a uniquely named database for one test file; `drop()` removes it (closing any sessions left). */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
