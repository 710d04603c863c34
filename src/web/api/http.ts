import axios, { AxiosError } from 'axios';
import { session } from '../auth/session';
import { i18n } from '../i18n';
import type { FieldError } from '../../shared/screens/validate';

/** The one HTTP client: bearer token from the session, the UI language, the spec's time-out (spec 7). */
export const http = axios.create({ timeout: 60_000_000 });

http.interceptors.request.use((config) => {
  if (session.token) config.headers.Authorization = `Bearer ${session.token}`;
  config.headers['Accept-Language'] = i18n.locale;
  return config;
});

export interface Result<T> {
  resultCode: number;
  resultMessage: string;
  resultObject: T;
}

/** The message a person should read from a failed call: the server's own words when it gave some. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof AxiosError) {
    const data = error.response?.data as { resultMessage?: string; error_description?: string } | undefined;
    return data?.error_description ?? data?.resultMessage ?? fallback;
  }
  return fallback;
}

/** The field errors a refused write answered (400 with resultObject.errors), to show beside their fields; else none. */
export function fieldErrors(error: unknown): FieldError[] {
  if (error instanceof AxiosError)
    return (error.response?.data as { resultObject?: { errors?: FieldError[] } })?.resultObject?.errors ?? [];
  return [];
}

/** GET a resultCode/resultObject call and unwrap it. */
export async function getResult<T>(url: string, params?: object): Promise<T> {
  const { data } = await http.get<Result<T>>(url, { params });
  return data.resultObject;
}
