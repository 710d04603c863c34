import type { Actor } from '../../../shared/access/can.js';
import type { Locale } from '../../../shared/i18n/messages.js';

/** The signed-in user a request acts for, as the auth hook found it. */
export interface AuthUser extends Actor {
  userAccount: string;
  userName: string;
  passwordFlag: number;
  /** The time zone of the user's lab: its stamps and the log are in its local time. */
  timeZone?: string;
  /** Hash of the bearer token of this request, so logout revokes exactly this session. */
  tokenHash: string;
}

/**
 * Who asks, in which language and from where: what every kernel service needs of a request, so a
 * capability can call a service for its own caller without re-sending an HTTP request.
 */
export interface Caller {
  actor: AuthUser;
  locale: Locale;
  ip: string;
}
