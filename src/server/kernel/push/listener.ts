import type pg from 'pg';
import { pgDriver } from '../db/pgDriver.js';

export interface PushLog {
  warn(message: string): void;
}

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

/**
 * LISTENs on one channel through a connection of its own: a pooled connection would be handed to other
 * queries and lose the subscription when released. When the connection drops (server restart, network,
 * pg_terminate_backend) it connects again, waiting longer after each failure; alerts notified while it
 * is away are lost, as a push alert is only worth something when it is fresh.
 */
export class NotifyListener {
  private client: pg.Client | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly onPayload: (payload: string) => void,
    private readonly log: PushLog,
    /** Told when notices may have been missed (the connection lost, or back): caches drop what they hold. */
    private readonly onGap: () => void = () => undefined,
  ) {}

  /** Whether notices are being heard now: while not, a cache fed by them must not be trusted. */
  get listening(): boolean {
    return this.heard;
  }

  private heard = false;

  /** Resolves once listening; a first failure is thrown, as the server should not start half-deaf. */
  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.heard = false;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    // application_name lets an operator (and the tests) find this connection in pg_stat_activity.
    const driver = await pgDriver();
    // Closed while the driver loaded: no connection to open.
    if (this.closed) return;
    const client = new driver.Client({
      connectionString: this.connectionString,
      application_name: this.channel,
      keepAlive: true,
    });
    this.client = client;
    client.on('notification', (note) => {
      if (note.channel === this.channel && note.payload) this.onPayload(note.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(this.channel)}`);
      this.failures = 0;
      this.heard = true;
      this.onGap();
    } catch (error) {
      this.lost(client, error as Error);
      throw error;
    }
  }

  /** Called by every way a connection can fail; only the first call for the current client acts. */
  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.heard = false;
    this.onGap();
    void client.end().catch(() => undefined);
    if (this.closed) return;
    const delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures++);
    this.log.warn(
      `${this.channel}: LISTEN connection lost (${error?.message ?? 'ended'}); reconnecting in ${delay} ms`,
    );
    this.retryTimer = setTimeout(() => {
      this.connect().catch(() => undefined);
    }, delay);
  }
}
