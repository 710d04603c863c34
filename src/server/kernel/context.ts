import type { ServerConfig } from '../config.js';
import type { Database } from './db/database.js';
import type { ScreenRegistry } from './screens/registry.js';
import type { PushHub } from './push/hub.js';

/** What every capability's routes are given: the database, the configuration and the clock. */
export interface AppContext {
  db: Database;
  config: ServerConfig;
  /** Injected so tests can age a session past the idle limit without waiting for it. */
  now: () => Date;
  /** Screen schemas of schemas/screens/, kept current while the server runs. */
  screens: ScreenRegistry;
  /** Alerts to signed-in users' browsers (spec 4 push channel). */
  push: PushHub;
}
