/** A small fetch-based API client for tests: sign in, then call with the bearer token. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

export interface Envelope<T = unknown> {
  resultCode: number;
  resultMessage: string;
  resultObject: T;
}

export async function login(url: string, username: string, password: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/oauth/token?client_id=laboratory`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ grant_type: 'password', scope: 'all', username, password }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { access_token?: string } };
}

export async function tokenFor(url: string, username: string, password: string): Promise<string> {
  const { status, body } = await login(url, username, password);
  if (status !== 200 || !body.access_token) throw new Error(`login ${username} failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

export function api(url: string, token?: string, locale?: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<ApiResponse<Envelope<T>>> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (locale) headers['accept-language'] = locale;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Envelope<T> };
  };
  return {
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    put: <T>(path: string, body?: unknown) => call<T>('PUT', path, body ?? {}),
    delete: <T>(path: string) => call<T>('DELETE', path),
  };
}
