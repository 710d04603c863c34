import { http } from '../api/http';
import { saveToken } from './session';

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  principal: { id: number; userAccount: string; userName: string; orgId: number; passwordFlag: number };
}

/** Spec 7.1 sign-in: password grant for the 'laboratory' client; the username is trimmed (spec 5). */
export async function signIn(username: string, password: string): Promise<TokenResponse> {
  const form = new URLSearchParams({ grant_type: 'password', scope: 'all', username: username.trim(), password });
  const { data } = await http.post<TokenResponse>('/oauth/token?client_id=laboratory', form, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  saveToken(data.principal.id, data.access_token);
  return data;
}
