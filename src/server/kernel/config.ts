import path from 'node:path';
import { isTimeZone, processTimeZone } from '../../shared/time.js';
import { SHIPPED_SCHEMAS } from './paths.js';

/** Everything the server reads from its environment, in one place, with the README's defaults. */
export interface ServerConfig {
  port: number;
  host: string;
  /** PGlite data directory; ignored when databaseUrl is set. */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  demoPassword: string;
  seedDemo: boolean;
  /** A token unused for this long answers HTTP 511 (spec 8). */
  idleTimeoutSeconds: number;
  /** Absolute lifetime of a token, whatever its use. */
  tokenTtlSeconds: number;
  /** Built browser app; served with index.html fallback for client routes. */
  webRoot: string;
  /** Folder of menus.json, screen.schema.json and screens/ (a copy elsewhere lets tests change screens). */
  schemaDir: string;
  logLevel: string;
  /** Lists count matching rows up to this many; past it they say "more" (counting a million rows costs ~100 ms). */
  listCountCap: number;
  /**
   * The longest an answer kept between writes (kernel/db/readCache.ts) is served, in ms: some show the
   * clock as well as the data. 0 keeps none. Writes, by any process, forget kept answers at once.
   */
  readCacheMs: number;
  /**
   * Proxies (addresses or CIDR ranges, as proxy-addr reads them) whose X-Forwarded-For / -Proto are
   * believed. Empty: the peer address is the client, whatever headers it sends (a client could forge them).
   */
  trustedProxies: string[];
  /** On SIGTERM, requests in flight get this long to finish before their sockets are cut. */
  shutdownGraceSeconds: number;
  /** Sign-in and password-change throttles: attempts per window, per client address and per account. */
  authRate: { perAddress: number; perAccount: number; windowSeconds: number };
  /** Five wrong passwords lock a name this long; each further lock doubles it, up to lockoutMaxSeconds. */
  lockoutSeconds: number;
  lockoutMaxSeconds: number;
  /** Lets `npm run backup` fetch a copy of the embedded database from the running server; unset: no such call. */
  backupKey: string | undefined;
  /** A lab's time zone until it configures its own (customConfig timeZone): LIMS_TIME_ZONE, else the server's. */
  timeZone: string;
  /**
   * LIMS_DEMO_MONTH: the month of lab life a fresh demo lab is given in the background (DAYSxPER_DAY,
   * 0 for none); read by the demo generator, which refuses a malformed one at start. Unset: its default.
   */
  demoMonth: string | undefined;
}

function int(value: string | undefined, fallback: number, min = 1): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(n) && n >= min ? Math.floor(n) : fallback;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: int(env.PORT, 8080, 0),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.LIMS_DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    demoPassword: env.LIMS_DEMO_PASSWORD || 'Lims@2026',
    seedDemo: env.LIMS_SEED_DEMO !== '0',
    idleTimeoutSeconds: int(env.LIMS_IDLE_TIMEOUT_SECONDS, 30 * 60),
    tokenTtlSeconds: int(env.LIMS_TOKEN_TTL_SECONDS, 12 * 60 * 60),
    webRoot: path.resolve(env.LIMS_WEB_ROOT || './dist/web'),
    schemaDir: path.resolve(env.LIMS_SCHEMA_DIR || SHIPPED_SCHEMAS),
    logLevel: env.LOG_LEVEL || 'info',
    listCountCap: int(env.LIMS_LIST_COUNT_CAP, 10_000),
    readCacheMs: int(env.LIMS_READ_CACHE_MS, 1_000, 0),
    trustedProxies: (env.LIMS_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    shutdownGraceSeconds: int(env.LIMS_SHUTDOWN_GRACE_SECONDS, 10, 0),
    authRate: {
      perAddress: int(env.LIMS_AUTH_RATE_PER_ADDRESS, 30),
      perAccount: int(env.LIMS_AUTH_RATE_PER_ACCOUNT, 10),
      windowSeconds: int(env.LIMS_AUTH_RATE_WINDOW_SECONDS, 60),
    },
    lockoutSeconds: int(env.LIMS_LOCKOUT_SECONDS, 60),
    lockoutMaxSeconds: int(env.LIMS_LOCKOUT_MAX_SECONDS, 3600),
    backupKey: env.LIMS_BACKUP_KEY || undefined,
    timeZone: timeZoneOf(env.LIMS_TIME_ZONE),
    demoMonth: env.LIMS_DEMO_MONTH,
  };
}

function timeZoneOf(value: string | undefined): string {
  if (!value) return processTimeZone();
  if (!isTimeZone(value))
    throw new Error(`LIMS_TIME_ZONE: "${value}" is no time zone (an IANA name, e.g. Asia/Shanghai)`);
  return value;
}
