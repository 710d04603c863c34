import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { arrivedForScreen, forgetEarlyReads, readEarly, readForScreen } from './earlyReads';

let answered = 0;
const server = setupServer(
  mock.get('*/api/dashboard', () => {
    answered += 1;
    return HttpResponse.json({ resultCode: 200, resultMessage: 'ok', resultObject: { read: answered } });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  vi.useRealTimers();
  forgetEarlyReads();
  answered = 0;
});
afterAll(() => server.close());

describe('reads started before their screen is built', () => {
  it('serve the first build, and every later build (a Refresh) reads afresh', async () => {
    readEarly('/api/dashboard');
    await expect(readForScreen('/api/dashboard')).resolves.toEqual({ read: 1 });
    await expect(readForScreen('/api/dashboard')).resolves.toEqual({ read: 2 });
    expect(answered).toBe(2);
  });

  it('are not served once stale: a screen opened later reads what is true then', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    readEarly('/api/dashboard');
    vi.setSystemTime(Date.now() + 6_000);
    await expect(readForScreen('/api/dashboard')).resolves.toEqual({ read: 2 });
  });

  it('are forgotten at sign-out, so the next user never sees the last one’s answers', async () => {
    readEarly('/api/dashboard');
    forgetEarlyReads();
    await expect(readForScreen('/api/dashboard')).resolves.toEqual({ read: 2 });
  });

  it('give an answer that has come to the first render of its screen, whose read then takes it without asking again', async () => {
    readEarly('/api/dashboard');
    expect(arrivedForScreen('/api/dashboard')).toBeUndefined();
    await vi.waitFor(() => expect(arrivedForScreen('/api/dashboard')).toEqual({ read: 1 }));
    const shown = arrivedForScreen('/api/dashboard');
    await expect(readForScreen('/api/dashboard')).resolves.toBe(shown);
    expect(answered).toBe(1);
    // Taken once: a later build of the screen (a Refresh) reads afresh.
    expect(arrivedForScreen('/api/dashboard')).toBeUndefined();
  });

  it('give no answer that has gone stale to a first render', async () => {
    readEarly('/api/dashboard');
    await vi.waitFor(() => expect(arrivedForScreen('/api/dashboard')).toBeDefined());
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6_000);
    expect(arrivedForScreen('/api/dashboard')).toBeUndefined();
  });
});
