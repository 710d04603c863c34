import type { Actor } from '../../../shared/access/can.js';

/** The signed-in user a request acts for, as the auth hook found it. */
export interface AuthUser extends Actor {
  userAccount: string;
  userName: string;
  passwordFlag: number;
  /** Hash of the bearer token of this request, so logout revokes exactly this session. */
  tokenHash: string;
}
